/**
 * The first key that appears twice in one object of a JSON text, as its path (`["a", 0, "b"]`), or null.
 * JSON.parse keeps the last of repeated keys, so `{"address":"x","address":"<valid>"}` would be served
 * for an address the caller may not have meant: such a body is ambiguous and must be refused. Keys are
 * compared decoded (`"a"` and `"\u0061"` are the same key). Expects text JSON.parse has accepted.
 */
import { present } from '../domain/shared/present.js';
export function firstRepeatedKey(text: string): (string | number)[] | null {
  type Frame = { kind: 'object'; keys: Set<string>; key: string | null; awaitingKey: boolean } | { kind: 'array'; index: number };
  const stack: Frame[] = [];
  const pathTo = (key: string) => [
    ...stack
      .slice(0, -1)
      .map((frame) =>
        frame.kind === 'object' ? present(frame.key, 'an enclosing object frame has read the key whose value is open') : frame.index,
      ),
    key,
  ];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '{') stack.push({ kind: 'object', keys: new Set(), key: null, awaitingKey: true });
    else if (char === '[') stack.push({ kind: 'array', index: 0 });
    else if (char === '}' || char === ']') stack.pop();
    else if (char === ',') {
      const top = stack.at(-1);
      if (top?.kind === 'object') top.awaitingKey = true;
      else if (top?.kind === 'array') top.index++;
    } else if (char === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const top = stack.at(-1);
      if (top?.kind !== 'object' || !top.awaitingKey) continue;
      const key = JSON.parse(text.slice(start, i + 1)) as string;
      if (top.keys.has(key)) return pathTo(key);
      top.keys.add(key);
      top.key = key;
      top.awaitingKey = false;
    }
  }
  return null;
}
