import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { secretFromBytes, signatureHeader, signatureOf } from './webhook-signature.js';
import { signedRequest } from './webhook-envelope.js';

describe('Standard Webhooks signatures', () => {
  it('match the reference test vector', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(signatureOf(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('secrets are whsec_ and 256 bits of randomness', () => {
    const secret = secretFromBytes(new Uint8Array(32).fill(7));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(() => secretFromBytes(new Uint8Array(16))).toThrow();
  });

  it('a signed delivery verifies with the standardwebhooks package, with the current and the previous secret', () => {
    const current = secretFromBytes(new Uint8Array(32).map((_, i) => i));
    const previous = secretFromBytes(new Uint8Array(32).map((_, i) => 255 - i));
    const content = {
      deliveryId: '0190f0c2-7a43-7a55-9d8e-1b2c3d4e5f60',
      eventType: 'service.bfs.failed' as const,
      occurredAt: '2026-11-22T10:00:00.000Z',
      payload: { job_id: 'j', address: 'a', network: 'ETH', error: 'x' },
    };
    const request = signedRequest(content, 3, [current, previous], new Date());
    const headers = {
      'webhook-id': request.headers['webhook-id']!,
      'webhook-timestamp': request.headers['webhook-timestamp']!,
      'webhook-signature': request.headers['webhook-signature']!,
    };
    expect(new Webhook(current).verify(request.body, headers)).toMatchObject({
      schema_version: 1,
      delivery_id: content.deliveryId,
      attempt: 3,
      payload: content.payload,
    });
    expect(new Webhook(previous).verify(request.body, headers)).toBeTruthy();
    const stranger = secretFromBytes(new Uint8Array(32).fill(1));
    expect(() => new Webhook(stranger).verify(request.body, headers)).toThrow();
    expect(() => new Webhook(current).verify(request.body.replace('"attempt":3', '"attempt":4'), headers)).toThrow();
    expect(request.headers).toMatchObject({
      'X-Service-Event': 'service.bfs.failed',
      'X-Service-Delivery-Id': content.deliveryId,
      'X-Service-Attempt': '3',
      'webhook-id': content.deliveryId,
    });
  });

  it('several secrets give space-separated signatures, current first', () => {
    const header = signatureHeader(['whsec_AAAA', 'whsec_BBBB'], 'id', 1, 'body');
    expect(header.split(' ')).toEqual([signatureOf('whsec_AAAA', 'id', 1, 'body'), signatureOf('whsec_BBBB', 'id', 1, 'body')]);
  });
});
