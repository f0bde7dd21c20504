import { randomUUID } from 'node:crypto';
import { messageBusContract } from '../contracts/message-bus.contract.js';
import { openKafkaMessageBus } from '../../infra/kafka/kafka-message-bus.js';
import { external, skippedSuite } from './external-env.js';

const name = 'Kafka (real broker)';
if (external.kafkaBrokers.length > 0) {
  messageBusContract(name, () =>
    openKafkaMessageBus({ brokers: external.kafkaBrokers, prefix: `contract-${randomUUID().slice(0, 8)}.`, partitions: 2 }),
  );
} else {
  skippedSuite(`MessageBus contract: ${name}`, 'KAFKA_BROKERS is not set (npm run test:external starts a broker)');
}
