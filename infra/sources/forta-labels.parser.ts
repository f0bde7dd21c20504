import { classifyLabelWords } from '../../domain/intel/label-words.js';
import { classifyEtherscanLabel, FORTA_DATA_SOURCES, type TagVerdict } from '../../domain/intel/native-tags.js';
import type { Network } from '../../domain/shared/network.js';
import { csvObjects } from './csv.js';
import { malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';

/**
 * forta-network/labelled-datasets `labels/<chainId>/*.csv`: Etherscan's phish-hack, exploit and heist
 * labels in three schemas. Labelled wallets hold on every EVM network; contracts only on the chain of
 * their folder (Optimism's, chain 10, is not screened: its contracts are skipped, their creators kept).
 */

/** Etherscan labels by hand; Forta exported them as they were in 2023. */
const FORTA_CONFIDENCE = 90;
const CHAINS: Readonly<Record<string, Network>> = { '1': 'ETH', '56': 'BSC' };

const SCHEMAS = {
  labels: ['banned_address', 'wallet_tag', 'data_source'],
  phishing: ['address', 'etherscan_tag', 'etherscan_labels', 'is_contract'],
  contracts: ['contract_address', 'contract_tag', 'contract_creator'],
} as const;

export function parseFortaLabels(text: string, file: string): ParsedFile {
  const chainId = /(?:^|\/)(\d+)\/[^/]+\.csv$/.exec(file)?.[1];
  if (!chainId) throw malformed(file, 'file name', 'expected labels/<chainId>/<name>.csv');
  const chain = CHAINS[chainId] ?? null;
  const firstField = text
    .slice(0, text.indexOf(','))
    .replace(/^\uFEFF/, '')
    .trim();
  const schema = Object.values(SCHEMAS).find((columns) => columns[0] === firstField);
  if (!schema) throw malformed(file, 'line 1', `unknown Forta schema starting with '${firstField}'`);
  const out = new ParsedFileBuilder(file);

  const claim = (raw: string, where: string, verdict: TagVerdict | null, label: string, contract: boolean): void => {
    const located = out.locate(raw, where);
    if (!located) return;
    if (!verdict || !('category' in verdict)) {
      out.untagged += 1;
      return;
    }
    if (contract && chain === null) {
      out.otherLedgers += 1;
      return;
    }
    const scope = ParsedFileBuilder.scopeOf(located, contract && chain ? chain : 'evm');
    const common = { address: located.address, scope, sourceUrl: null, seenAt: null };
    out.claims.push({ ...common, kind: 'risk', category: verdict.category, label: label.trim() || null, confidence: FORTA_CONFIDENCE });
    if (contract) out.claims.push({ ...common, kind: 'risk', category: 'contract', label: null, confidence: 100 });
  };

  for (const { row, line } of csvObjects(text, file, schema)) {
    const where = `line ${line}`;
    out.records += 1;
    if (schema === SCHEMAS.labels) {
      const list = FORTA_DATA_SOURCES[row.data_source ?? ''];
      const verdict = list ? classifyEtherscanLabel(list, row.wallet_tag ?? '') : null;
      claim(row.banned_address ?? '', where, verdict, row.wallet_tag ?? '', false);
    } else if (schema === SCHEMAS.phishing) {
      const verdict = classifyEtherscanLabel(row.etherscan_labels?.trim() ?? '', row.etherscan_tag ?? '');
      claim(row.address ?? '', where, verdict, row.etherscan_tag ?? '', row.is_contract?.trim() === 'True');
    } else {
      const creatorList = row.contract_creator_etherscan_label?.trim() ?? '';
      const creatorTag = row.contract_creator_tag ?? '';
      const described = `${row.contract_tag ?? ''} ${creatorTag} ${row.notes ?? ''}`;
      // A contract in this data set served an exploit or a phishing campaign: theft unless told otherwise.
      const contractVerdict = creatorList
        ? classifyEtherscanLabel(creatorList, described)
        : (classifyLabelWords(described) ?? { category: 'stolen_funds', kind: 'risk' as const });
      claim(row.contract_address ?? '', where, contractVerdict, row.contract_tag ?? '', true);
      const creatorVerdict = creatorList ? classifyEtherscanLabel(creatorList, creatorTag) : classifyLabelWords(creatorTag);
      if (creatorVerdict) claim(row.contract_creator ?? '', where, creatorVerdict, creatorTag, false);
    }
  }
  return out.finish();
}
