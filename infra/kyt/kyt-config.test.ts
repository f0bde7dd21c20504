import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { chainEndpoints } from './kyt-config.js';

describe('transfer check endpoints', () => {
  it('take CHAIN_RPC_<CHAIN> first, else the node the service already knows for that chain', () => {
    const config = loadConfig({
      CHAIN_RPC_ETH: 'http://eth.example:8545',
      SVC_RPC_URL_ETH: 'http://other.example:8545',
      SVC_RPC_URL_BSC: 'http://bsc.example:8545',
      CHAIN_RPC_BASE: 'https://base.example',
      SVC_TRON_API_URL: 'https://tron.example',
      SVC_TRON_API_KEY: 'tron-key',
    });
    expect(chainEndpoints(config)).toEqual({
      evm: { ETH: 'http://eth.example:8545', BSC: 'http://bsc.example:8545', BASE: 'https://base.example' },
      tron: { baseUrl: 'https://tron.example', apiKey: 'tron-key' },
    });
    expect(chainEndpoints(loadConfig({}))).toEqual({ evm: {}, tron: null });
  });
});
