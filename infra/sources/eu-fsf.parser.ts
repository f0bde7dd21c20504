import { isoDay, malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { sanctionDraft } from './sanction-draft.js';
import { addressesInText } from './sanctions-text-addresses.js';
import { xmlTokens } from './xml-tokenizer.js';

/**
 * The EU's consolidated Financial Sanctions Files, XML schema 1.1 (`xmlFullSanctionsList_1_1`): an
 * `<export generationDate=…>` of `<sanctionEntity euReferenceNumber=… logicalId=… designationDate=…>`,
 * each with `<regulation programme=… publicationDate=…>`, `<nameAlias wholeName=… strong=…>`,
 * `<remark>` texts and `<identification number=… identificationTypeDescription=…>`. The schema has no
 * address field: addresses are read from the remarks and identification numbers.
 */

export const EU_FSF_PAGE = 'https://webgate.ec.europa.eu/fsd/fsf';

interface Entity {
  readonly id: string;
  readonly line: number;
  designationDate: string | null;
  names: { name: string; strong: boolean }[];
  programmes: string[];
  publicationDates: string[];
  texts: string[];
}

export function parseEuFsfXml(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  const path: string[] = [];
  let entity: Entity | null = null;
  let sawExport = false;

  const finishEntity = (done: Entity): void => {
    const entityName = (done.names.find((n) => n.strong) ?? done.names[0])?.name ?? null;
    const listDate = done.designationDate ?? [...done.publicationDates].sort()[0] ?? null;
    const seen = new Set<string>();
    for (const { raw, asset } of done.texts.flatMap(addressesInText)) {
      if (seen.has(raw)) continue;
      seen.add(raw);
      out.records += 1;
      const located = out.locate(raw, `line ${done.line}`);
      if (!located) continue;
      out.claims.push(
        sanctionDraft(located, EU_FSF_PAGE, {
          list: 'EU',
          entity: entityName,
          program: done.programmes.length > 0 ? [...new Set(done.programmes)].join('; ') : null,
          listEntryId: done.id,
          listDate,
          asset,
        }),
      );
    }
  };

  for (const token of xmlTokens(text, file)) {
    if (token.type === 'open') {
      const { name, attributes: a } = token;
      path.push(name);
      if (path.length === 1) {
        if (name !== 'export') throw malformed(file, `line ${token.line}`, `root <${name}> is not <export>`);
        sawExport = true;
        out.dataDate = isoDay(a.generationDate);
      } else if (name === 'sanctionEntity') {
        const id = a.euReferenceNumber || a.logicalId;
        if (!id) throw malformed(file, `line ${token.line}`, 'sanctionEntity without euReferenceNumber or logicalId');
        entity = {
          id,
          line: token.line,
          designationDate: isoDay(a.designationDate),
          names: [],
          programmes: [],
          publicationDates: [],
          texts: [],
        };
      } else if (entity && name === 'nameAlias' && a.wholeName) {
        entity.names.push({ name: a.wholeName.trim(), strong: a.strong === 'true' });
      } else if (entity && name === 'regulation') {
        if (a.programme) entity.programmes.push(a.programme);
        const published = isoDay(a.publicationDate);
        if (published) entity.publicationDates.push(published);
      } else if (entity && name === 'identification' && a.number) {
        entity.texts.push(`${a.identificationTypeDescription ?? ''} ${a.number}`);
      }
    } else if (token.type === 'close') {
      path.pop();
      if (token.name === 'sanctionEntity' && entity) {
        finishEntity(entity);
        entity = null;
      }
    } else if (entity && path.at(-1) === 'remark') {
      entity.texts.push(token.text);
    }
  }
  if (!sawExport) throw malformed(file, 'line 1', 'no <export> element');
  return out.finish();
}
