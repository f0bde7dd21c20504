import { sha256, stringToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { STORED_SCREENS_V2 } from '../../test/support/stored-screens.js';
import { eventRegistry } from '../../domain/events/registry.js';
import { inputHashOf } from '../../domain/receipts/canonical-json.js';
import { detachedScreenReceiptOf, screenReceiptToKeep } from '../../domain/receipts/charged-screen-receipt.js';
import { compactReceiptOf, type DetachedReceipt } from '../../domain/receipts/detached-receipt.js';
import { sha256Hex, useNativeSha256Hex } from '../../domain/shared/hash.js';
import { installNativeSha256, nodeSha256Hex } from './native-sha256.js';

const viemSha256Hex = (text: string) => sha256(stringToBytes(text)).slice(2);

describe('the native SHA-256 the service hashes with', () => {
  it('gives the FIPS 180-2 digests and viem’s on any string, a lone surrogate included', () => {
    expect(nodeSha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(nodeSha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    for (const text of ['', 'svc_' + 'B'.repeat(44), 'ünïcødé ✓ 😀', '\udc00 alone', 'x'.repeat(10_000)])
      expect(nodeSha256Hex(text)).toBe(viemSha256Hex(text));
  });

  it('is refused when it disagrees with the JavaScript hash, which then stays in use', () => {
    const utf16 = (text: string) => viemSha256Hex(Buffer.from(text, 'utf16le').toString('latin1'));
    expect(() => useNativeSha256Hex(utf16)).toThrow(/disagrees/);
    expect(sha256Hex('abc')).toBe(viemSha256Hex('abc'));
  });

  it('once installed, gives back the stored screens’ input hashes and their receipts byte for byte', () => {
    installNativeSha256();
    expect(sha256Hex('abc')).toBe(nodeSha256Hex('abc'));
    expect(STORED_SCREENS_V2.screens.length).toBeGreaterThan(3);
    for (const screen of STORED_SCREENS_V2.screens) {
      const parsed = eventRegistry.parse({ ...screen.event, streamId: `ledger-${STORED_SCREENS_V2.ownerId}`, revision: 0n } as never);
      if (parsed?.type !== 'Charged') throw new Error('the fixture holds Charged events');
      const charge = { chargeId: parsed.data.chargeId, details: parsed.data.details };
      const whole = parsed.data.details.receipt as DetachedReceipt;
      const { address, network } = whole.statement.subject;
      expect(inputHashOf({ address, network })).toBe(whole.statement.inputHash);
      const kept = screenReceiptToKeep(charge, whole);
      expect(Object.keys(kept).sort()).toEqual(['data', 'issuedAt', 'kid', 'signature']);
      expect(compactReceiptOf(detachedScreenReceiptOf(charge, kept)!)).toBe(JSON.parse(screen.body).receipt);
    }
  });
});
