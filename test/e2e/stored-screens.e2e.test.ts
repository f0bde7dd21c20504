import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_SCREENS, STORED_SCREENS_V2, type StoredScreen, type StoredScreens } from '../support/stored-screens.js';
import { pollUntil } from '../support/polling.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A data directory written by earlier versions still opens and serves its light screens: the Charged
 * events recorded then (test/fixtures/verdicts/screens-v1.json, before screen verdicts were domain facts:
 * the wire summary and the compact JWS in their details; screens-v2.json: the domain summary and the
 * receipt's statement and detached JWS whole, before a charge kept only what it does not state) are
 * appended as they were, into a new owner's ledger, then read back through GET /v2/verdicts/{id}: the very
 * bytes served then, receipt included.
 */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
type Owner = { userId: string; keyId: string; apiKey: string };

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

/**
 * The screen's Charged event as recorded, into `owner`'s ledger. The verdict id is signed in the receipt:
 * it is kept. So is the key id, signed as the caller (an owner's key is looked up by its hash, not its id).
 */
async function appendAsRecorded(fixture: StoredScreens, screen: StoredScreen, owner: Owner, index: number): Promise<void> {
  const data = JSON.parse(JSON.stringify(screen.event.data).replaceAll(fixture.ownerId, owner.userId));
  const event = { id: service.services.commands.ids.eventId(`stored-screen:${owner.userId}`, index), ...screen.event, data };
  await service.services.store.append(`ledger-${owner.userId}`, [event] as never, { expected: 'any' });
}

const getVerdict = (key: string, id: string) => service.app.inject({ method: 'GET', url: `/v2/verdicts/${id}`, headers: auth(key) });

describe.each([
  ['version 1 (before screen verdicts were domain facts)', STORED_SCREENS],
  ['version 2 (the receipt detached whole)', STORED_SCREENS_V2],
])('light screens charged as Charged %s', (_, fixture) => {
  it('are served the very bytes they were served then, receipt included', async () => {
    const owner = await service.account({ depositUsd: 5 });
    expect(fixture.screens.length).toBeGreaterThan(3);
    for (const [i, screen] of fixture.screens.entries()) await appendAsRecorded(fixture, screen, owner, i);
    for (const screen of fixture.screens) {
      const response = await pollUntil(async () => {
        const found = await getVerdict(owner.apiKey, screen.verdictId);
        return found.statusCode === 404 ? null : found;
      });
      expect(response.statusCode, screen.verdictId).toBe(screen.status);
      expect(response.body).toBe(screen.body);
    }
  });

  it('answer 404 to anyone but the owner', async () => {
    const [owner, stranger] = [await service.account({ depositUsd: 5 }), await service.account({ depositUsd: 5 })];
    const screen = fixture.screens[0] as StoredScreen;
    await appendAsRecorded(fixture, screen, owner, 0);
    await service.services.whenCaughtUp();
    expect((await getVerdict(stranger.apiKey, screen.verdictId)).statusCode).toBe(404);
  });
});
