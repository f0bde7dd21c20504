import { malformed } from './parsed-file.js';

/**
 * A small pull tokenizer for well-formed XML: start tags (with attributes), end tags and text, in
 * document order, with the line each starts on. It skips the prolog, comments, processing
 * instructions and DOCTYPE, decodes the five predefined entities and character references, keeps
 * CDATA as text, strips namespace prefixes, and checks nesting — a truncated or mis-nested document
 * is an error naming the file and line. No DTD, no external entities (nothing to exploit).
 * It walks the string with indexOf, so a 100 MB OFAC file costs one pass.
 */

export type XmlToken =
  | { readonly type: 'open'; readonly name: string; readonly attributes: Readonly<Record<string, string>>; readonly line: number }
  | { readonly type: 'close'; readonly name: string; readonly line: number }
  | { readonly type: 'text'; readonly text: string; readonly line: number };

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

export function* xmlTokens(xml: string, file: string): Generator<XmlToken> {
  let position = 0;
  let line = 1;
  let lineCountedTo = 0;
  const open: { name: string; line: number }[] = [];
  const lineAt = (index: number): number => {
    for (let at = xml.indexOf('\n', lineCountedTo); at !== -1 && at < index; at = xml.indexOf('\n', at + 1)) line += 1;
    lineCountedTo = Math.max(lineCountedTo, index);
    return line;
  };
  const decode = (raw: string, at: number): string =>
    raw.indexOf('&') === -1
      ? raw
      : raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (whole, name: string, offset: number) => {
          if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
          if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
          const entity = ENTITIES[name];
          if (entity === undefined || !whole.endsWith(';')) throw malformed(file, `line ${lineAt(at + offset)}`, `unknown entity ${whole}`);
          return entity;
        });
  const skipTo = (terminator: string, from: number, what: string): number => {
    const at = xml.indexOf(terminator, from);
    if (at === -1) throw malformed(file, `line ${lineAt(from)}`, `unterminated ${what}`);
    return at + terminator.length;
  };

  while (position < xml.length) {
    const lt = xml.indexOf('<', position);
    const textEnd = lt === -1 ? xml.length : lt;
    if (textEnd > position) {
      const raw = xml.slice(position, textEnd);
      if (open.length > 0 && raw.trim() !== '') yield { type: 'text', text: decode(raw, position), line: lineAt(position) };
      else if (open.length === 0 && raw.trim() !== '') throw malformed(file, `line ${lineAt(position)}`, 'text outside the root element');
    }
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) position = skipTo('-->', lt + 4, 'comment');
    else if (xml.startsWith('<?', lt)) position = skipTo('?>', lt + 2, 'processing instruction');
    else if (xml.startsWith('<![CDATA[', lt)) {
      const end = skipTo(']]>', lt + 9, 'CDATA section');
      yield { type: 'text', text: xml.slice(lt + 9, end - 3), line: lineAt(lt) };
      position = end;
    } else if (xml.startsWith('<!', lt)) position = skipTo('>', lt + 2, 'declaration');
    else if (xml.startsWith('</', lt)) {
      const gt = skipTo('>', lt + 2, 'end tag');
      const name = localName(xml.slice(lt + 2, gt - 1).trim());
      const expected = open.pop();
      if (!expected || expected.name !== name) {
        const why = expected ? `</${name}> closes <${expected.name}> of line ${expected.line}` : `</${name}> without a start tag`;
        throw malformed(file, `line ${lineAt(lt)}`, why);
      }
      yield { type: 'close', name, line: lineAt(lt) };
      position = gt;
    } else {
      const gt = skipTo('>', lt + 1, 'start tag');
      const selfClosing = xml.charCodeAt(gt - 2) === 47; // '/'
      const body = xml.slice(lt + 1, selfClosing ? gt - 2 : gt - 1);
      const { name, attributes } = parseTag(body, (problem) => malformed(file, `line ${lineAt(lt)}`, problem), decode, lt);
      const tagLine = lineAt(lt);
      yield { type: 'open', name, attributes, line: tagLine };
      if (selfClosing) yield { type: 'close', name, line: tagLine };
      else open.push({ name, line: tagLine });
      position = gt;
    }
  }
  const unclosed = open.pop();
  if (unclosed)
    throw malformed(file, `line ${lineAt(xml.length)}`, `truncated: <${unclosed.name}> of line ${unclosed.line} is never closed`);
}

function parseTag(
  body: string,
  error: (problem: string) => Error,
  decode: (raw: string, at: number) => string,
  at: number,
): { name: string; attributes: Record<string, string> } {
  const nameEnd = body.search(/\s|$/);
  const name = body.slice(0, nameEnd);
  if (!/^[A-Za-z_][\w.:-]*$/.test(name)) throw error(`malformed tag <${body.slice(0, 40)}>`);
  const attributes: Record<string, string> = {};
  let rest = body.slice(nameEnd);
  for (;;) {
    rest = rest.trimStart();
    if (rest === '') break;
    const eq = rest.indexOf('=');
    const afterEq = eq === -1 ? '' : rest.slice(eq + 1).trimStart();
    const quote = afterEq[0];
    if (eq <= 0 || (quote !== '"' && quote !== "'")) throw error(`malformed attributes in <${name}>`);
    const valueEnd = afterEq.indexOf(quote, 1);
    if (valueEnd === -1) throw error(`unterminated attribute value in <${name}>`);
    attributes[localName(rest.slice(0, eq).trim())] = decode(afterEq.slice(1, valueEnd), at);
    rest = afterEq.slice(valueEnd + 1);
  }
  return { name: localName(name), attributes };
}
