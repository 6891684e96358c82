/** fast-check arbitraries for fuzzing parsers: random text and bytes, and real samples bent out of shape. */
import fc from 'fast-check';

/** Numbers a parser should survive: huge, negative, non-finite, localised, exotic digits. */
export const HOSTILE_NUMBERS = [
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  'inf',
  '∞',
  '-1',
  '-0',
  '-999999999999',
  '1e308',
  '1e309',
  '-1e309',
  '1e-400',
  '179769313486231570000000000000000000000000000',
  '9007199254740993',
  '0.0000000001',
  '1,5',
  '3,14159',
  '1.234.567,89',
  '1 234 567',
  '0x7fffffff',
  '+5',
  '.5',
  '5.',
  '1_000',
  '١٢٣',
  '１２３',
  '',
  '-',
  'n/a',
  'NaN ms',
  '99999999999999999999%',
] as const;

export type Mutation =
  | { op: 'cutChars'; at: number }
  | { op: 'cutLine'; at: number }
  | { op: 'shuffle'; seed: number }
  | { op: 'numbers'; repl: string; every: number }
  | { op: 'crlf' | 'cr' | 'decimalComma' | 'bom' | 'tabs' | 'upper' | 'trimLines' | 'doubleBlank' }
  | { op: 'dropLine' | 'dupLine'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'nul'; at: number }
  | { op: 'longLine'; at: number; n: number };

const lines = (t: string) => t.split('\n');

function shuffle<T>(xs: T[], seed: number): T[] {
  let s = seed >>> 0 || 1;
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function applyMutation(text: string, m: Mutation): string {
  const ls = lines(text);
  const li = (at: number) => (ls.length ? at % ls.length : 0);
  switch (m.op) {
    case 'cutChars':
      return text.slice(0, text.length ? m.at % (text.length + 1) : 0);
    case 'cutLine':
      return ls.slice(0, li(m.at)).join('\n');
    case 'shuffle':
      return shuffle(ls, m.seed).join('\n');
    case 'numbers': {
      let k = 0;
      return text.replace(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (n) => (k++ % m.every === 0 ? m.repl : n));
    }
    case 'crlf':
      return text.replace(/\n/g, '\r\n');
    case 'cr':
      return text.replace(/\n/g, '\r');
    case 'decimalComma':
      return text.replace(/(\d)\.(\d)/g, '$1,$2');
    case 'bom':
      return `\uFEFF${text}`;
    case 'tabs':
      return text.replace(/ {2,}/g, '\t');
    case 'upper':
      return text.toUpperCase();
    case 'trimLines':
      return ls.map((l) => l.trim()).join('\n');
    case 'doubleBlank':
      return ls.join('\n\n');
    case 'dropLine':
      return ls.filter((_, i) => i !== li(m.at)).join('\n');
    case 'dupLine':
      return ls.flatMap((l, i) => (i === li(m.at) ? [l, l] : [l])).join('\n');
    case 'insert':
      return [...ls.slice(0, li(m.at)), m.text, ...ls.slice(li(m.at))].join('\n');
    case 'nul':
      return text.slice(0, m.at % (text.length + 1)) + '\0' + text.slice(m.at % (text.length + 1));
    case 'longLine':
      return [...ls.slice(0, li(m.at)), 'x'.repeat(m.n), ...ls.slice(li(m.at))].join('\n');
  }
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('cutChars' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('cutLine' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('shuffle' as const), seed: fc.nat() }),
  fc.record({ op: fc.constant('numbers' as const), repl: fc.constantFrom(...HOSTILE_NUMBERS), every: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ op: fc.constantFrom('crlf', 'cr', 'decimalComma', 'bom', 'tabs', 'upper', 'trimLines', 'doubleBlank') }),
  fc.record({ op: fc.constantFrom('dropLine', 'dupLine'), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ maxLength: 80 }) }),
  fc.record({ op: fc.constant('nul' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('longLine' as const), at: fc.nat(), n: fc.integer({ min: 1_000, max: 200_000 }) }),
);

export interface FuzzInput {
  origin: 'random' | 'tokens' | 'sample';
  text: string;
}

/** A sample cut to at most maxChars at a line end, so mutating large samples stays fast. */
export function capSample(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  return text.slice(0, cut > 0 ? cut + 1 : maxChars);
}

/**
 * Inputs for one parser: random unicode, random bytes as UTF-8, soups of tokens taken from real samples with
 * hostile numbers, and real samples with 1–4 mutations (most weight: that is where parsers do real work).
 */
export function fuzzInputArb(samples: readonly string[]): fc.Arbitrary<FuzzInput> {
  const tokens = [...new Set(samples.flatMap((s) => s.slice(0, 4000).split(/[\s,:=|]+/)).filter((t) => t.length > 0 && t.length < 40))].slice(0, 400);
  const random = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 400 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: 400 }),
    fc.uint8Array({ maxLength: 1500 }).map((b) => Buffer.from(b).toString('utf8')),
    fc.uint8Array({ maxLength: 1500 }).map((b) => Buffer.from(b).toString('latin1')),
  );
  const token = tokens.length
    ? fc.oneof(fc.constantFrom(...tokens), fc.constantFrom(...HOSTILE_NUMBERS), fc.string({ maxLength: 12 }))
    : fc.string({ maxLength: 12 });
  const soup = fc
    .array(fc.tuple(token, fc.constantFrom(' ', '  ', '\t', '\n', ': ', ' | ', ',', '\r\n')), { maxLength: 120 })
    .map((xs) => xs.map(([t, sep]) => t + sep).join(''));
  const arbs: fc.WeightedArbitrary<FuzzInput>[] = [
    { weight: 2, arbitrary: random.map((text) => ({ origin: 'random' as const, text })) },
    { weight: 2, arbitrary: soup.map((text) => ({ origin: 'tokens' as const, text })) },
  ];
  if (samples.length) {
    arbs.push({
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...samples), fc.array(mutationArb, { minLength: 1, maxLength: 4 }))
        .map(([s, ms]) => ({ origin: 'sample' as const, text: ms.reduce(applyMutation, s) })),
    });
  }
  return fc.oneof(...arbs);
}
