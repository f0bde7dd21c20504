/**
 * The fields a browser would submit for one form of a server-rendered page: its inputs (checkboxes only when
 * checked), selects (the selected option, else the first) and textareas, values unescaped. Enough for the
 * dashboard's own forms, which put every attribute in double quotes; it is no general HTML parser.
 */
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
const attr = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? unescape(match[1]!) : null;
};

/** The body of the first form whose action starts with `action`, as [name, value] pairs in document order. */
export function formFields(page: string, action: string): [string, string][] {
  const forms = [...page.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]);
  const form = forms.find((f) => attr(/<form\b[^>]*>/.exec(f)![0], 'action')?.startsWith(action));
  if (!form) throw new Error(`no form posts to ${action}`);
  const fields: [string, string][] = [];
  for (const match of form.matchAll(/<input\b[^>]*>|<select\b[^>]*>[\s\S]*?<\/select>|<textarea\b[^>]*>[\s\S]*?<\/textarea>/g)) {
    const element = match[0];
    const name = attr(element, 'name');
    if (name === null) continue;
    if (element.startsWith('<input')) {
      const type = attr(element, 'type') ?? 'text';
      if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/.test(element)) continue;
      fields.push([name, attr(element, 'value') ?? (type === 'checkbox' ? 'on' : '')]);
    } else if (element.startsWith('<select')) {
      const options = [...element.matchAll(/<option\b[^>]*>/g)].map((o) => o[0]);
      const chosen = options.find((o) => /\sselected\b/.test(o)) ?? options[0];
      if (chosen) fields.push([name, attr(chosen, 'value') ?? '']);
    } else {
      fields.push([name, unescape(/<textarea\b[^>]*>([\s\S]*?)<\/textarea>/.exec(element)![1]!)]);
    }
  }
  return fields;
}

/** The fields with some replaced (by name; a name not in the form is added). */
export function withFields(fields: readonly [string, string][], changes: Record<string, string>): string {
  const body = new URLSearchParams();
  const left = new Map(Object.entries(changes));
  for (const [name, value] of fields) {
    body.append(name, left.has(name) ? left.get(name)! : value);
    left.delete(name);
  }
  for (const [name, value] of left) body.append(name, value);
  return body.toString();
}
