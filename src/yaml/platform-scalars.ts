/**
 * How the platform types a YAML scalar (../shared/reference/platform-facts-2.md §1.2): SnakeYAML 2.0's YAML 1.1
 * resolver picks a tag for each plain scalar, then Jackson 2.15 decodes it. This is neither YAML 1.2 (what
 * `yaml` does by default) nor `yaml`'s own 1.1 schema (which also reads `y`, `1:20` and dates as non-strings).
 * The reader and the emitter both use it, so what we write is what the platform reads back.
 */

// SnakeYAML 2.0 Resolver's patterns (only plain scalars are resolved), each `[0-1]+[0-1_]*` written as the same
// `[0-1][0-1_]*`: the two overlapping runs backtracked quadratically on a long scalar of digits (issue 38).
const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const INT =
  /^(?:[-+]?0b_*[0-1][0-1_]*|[-+]?0_*[0-7][0-7_]*|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F][0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)|[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const NULL = /^(?:~|null|Null|NULL| |)$/;
const TRUE_WORDS = new Set(['true', 'True', 'TRUE', 'yes', 'Yes', 'YES', 'on', 'On', 'ON']);
/** Jackson's `_matchYAMLBoolean`, used under an explicit `!!bool` tag, also takes `y` and `n`. */
const TAGGED_BOOL = new Map<string, boolean>([
  ...['y', 'Y', ...TRUE_WORDS].map((word) => [word, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((word) => [word, false] as const),
]);

/** A scalar the platform cannot read at all (Jackson's "Malformed numeric value"). */
export class MalformedNumber extends Error {
  override name = 'MalformedNumber';
}

export type PlatformScalar = string | number | boolean | null;

/** An integer as Jackson decodes the INT tag; `1:20` (sexagesimal) stays text. */
function decodeInt(text: string): PlatformScalar {
  const clean = text.replace(/_/g, '');
  if (clean.includes(':')) return text;
  const match = /^([-+]?)(0b[01]+|0x[0-9a-fA-F]+|0[0-7]+|[0-9]+)$/.exec(clean);
  if (!match) return text;
  const digits = match[2]!;
  const magnitude = digits.startsWith('0b')
    ? parseInt(digits.slice(2), 2)
    : digits.startsWith('0x')
      ? parseInt(digits.slice(2), 16)
      : digits.length > 1 && digits.startsWith('0')
        ? parseInt(digits, 8)
        : Number(digits);
  // `-0` is the integer 0 (Java has no negative zero integer).
  return match[1] === '-' ? 0 - magnitude + 0 : magnitude;
}

/** A float as Jackson decodes it: underscores dropped, then Java's `Double.parseDouble`. */
function decodeFloat(text: string): number {
  const clean = text.replace(/_/g, '');
  // Java's parser knows neither YAML's `.inf`/`.nan` nor sexagesimal floats, and `.` alone is not a number.
  if (clean.includes(':') || /inf|nan/i.test(clean) || !/[0-9]/.test(clean))
    throw new MalformedNumber(`Malformed numeric value '${text}'`);
  return Number(clean);
}

/** The value of a plain (unquoted, untagged) scalar. Throws `MalformedNumber` where the platform fails. */
export function platformPlain(text: string): PlatformScalar {
  // Most scalars are words: skip the patterns unless the first character could start a non-string.
  const first = text.charCodeAt(0);
  const maybe = text.length === 0 || first === 126 /* ~ */ || first === 32 || /[-+.0-9nNyYoOtTfF]/.test(text[0]!);
  if (!maybe) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return TRUE_WORDS.has(text);
  if (INT.test(text)) return decodeInt(text);
  if (FLOAT.test(text)) return decodeFloat(text);
  return text;
}

/** The value of a scalar with an explicit tag (`!!int '12'`); unknown and custom tags leave the text. */
export function platformTagged(text: string, tag: string): PlatformScalar {
  const name = tag.startsWith('tag:yaml.org,2002:') ? tag.slice('tag:yaml.org,2002:'.length) : tag;
  // Jackson's length check comes first: an empty tagged scalar is the empty string, whatever the tag.
  if (text === '') return '';
  switch (name) {
    case 'bool':
      return TAGGED_BOOL.get(text) ?? text;
    case 'int':
      return decodeInt(text);
    case 'float':
      return decodeFloat(text);
    case 'null':
      return null;
    default:
      return text;
  }
}
