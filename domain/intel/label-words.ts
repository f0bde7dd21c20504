/**
 * Free-text labels (Etherscan name tags, GraphSense labels, MEW comments) carry their category in words:
 * "Fake_Phishing1772", "Upbit Hacker 8.80", "Tornado.Cash: Mixer 1". The rules below read those words;
 * the first rule that matches wins, so specific words come before generic ones ("Fake_Phishing" is
 * phishing, not a generic fake).
 */

export interface NativeMapping {
  readonly category: string;
  readonly kind: 'risk' | 'identity';
}

interface LabelWordRule extends NativeMapping {
  readonly words: RegExp;
}

const risk = (words: RegExp, category: string): LabelWordRule => ({ words, category, kind: 'risk' });
const identity = (words: RegExp, category: string): LabelWordRule => ({ words, category, kind: 'identity' });

export const LABEL_WORD_RULES: readonly LabelWordRule[] = [
  risk(/phish/i, 'phishing'),
  risk(/sanction|\bofac\b/i, 'sanctions'),
  risk(/ransom/i, 'ransomware'),
  risk(/launder/i, 'money_laundering'),
  risk(/etherhiding|malware|drainer/i, 'malware'),
  risk(/honeypot|scam|ponzi|pyramid|rug ?pull|fraud|\bfake\b|fake[_:]|spam|impersonat/i, 'scam'),
  risk(/hack(?!athon)|x?ploit|explo\b|\bheist\b|stolen|compromised|flash ?loan attack|attacker/i, 'stolen_funds'),
  identity(/tornado|\bmixer\b|mixing|blender\.io|sinbad/i, 'mixer'),
];

/**
 * Labels that contain a suspicious word but are not what the word suggests. Each needs a reason; the
 * native-tags test fails on any suspicious label that is neither classified nor listed here.
 */
export const IGNORED_SUSPICIOUS_LABELS: Readonly<Record<string, string>> = {
  BankHeist4D: 'a FOMO3D-style game contract named after a heist, not theft proceeds',
};

/** Words that must never pass unnoticed: a label containing one is classified or deliberately ignored. */
export const SUSPICIOUS_WORDS =
  /phish|hack|exploit|heist|scam|fraud|fake|spam|ponzi|pyramid|rug ?pull|drain|stolen|compromised|honeypot|tornado|mixer|mixing|sanction|ofac|ransom|launder|darknet|terror|attack|theft|thief|malicious|blacklist|extort/i;

export function classifyLabelWords(label: string): NativeMapping | null {
  if (Object.hasOwn(IGNORED_SUSPICIOUS_LABELS, label)) return null;
  const rule = LABEL_WORD_RULES.find((candidate) => candidate.words.test(label));
  return rule ? { category: rule.category, kind: rule.kind } : null;
}
