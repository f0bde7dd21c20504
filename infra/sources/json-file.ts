import { present } from '../../domain/shared/present.js';
import { malformed } from './parsed-file.js';

/**
 * JSON.parse, and on failure an error naming the file and the line of the first syntax error. Node's
 * own message does not always give a position, so a small validator finds it (only on failure).
 */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const before = text.slice(0, firstSyntaxError(text)).split('\n');
    throw malformed(
      file,
      `line ${before.length}`,
      `invalid JSON at column ${present(before.at(-1), 'split always returns at least one part').length + 1}`,
    );
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringField = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

class SyntaxAt extends Error {
  constructor(readonly offset: number) {
    super('json syntax');
  }
}

/** Offset of the first JSON syntax error in `text` (its length when the text ends too early). */
function firstSyntaxError(text: string): number {
  let at = 0;
  const space = (): void => {
    while (at < text.length && ' \t\r\n'.includes(present(text[at], 'at stays below the text length'))) at += 1;
  };
  const expect = (char: string): void => {
    if (text[at] !== char) throw new SyntaxAt(at);
    at += 1;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      at += 1;
      space();
      if (text[at] === close) {
        at += 1;
        return;
      }
      for (;;) {
        if (char === '{') {
          space();
          string();
          space();
          expect(':');
        }
        value();
        space();
        if (text[at] === ',') at += 1;
        else return expect(close);
      }
    }
    if (char === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!literal) throw new SyntaxAt(at);
    at += literal[0].length;
  };
  const string = (): void => {
    expect('"');
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    expect('"');
  };
  try {
    value();
    space();
    return at < text.length ? at : text.length;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    throw error;
  }
}
