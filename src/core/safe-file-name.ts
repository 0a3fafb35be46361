/**
 * A name from outside as a file name every file system and checkout can hold. Pure (no Node modules): the
 * identity codec in catalog/resource-key.ts uses it, and that runs in browsers too.
 */
import { trimEnd } from './trim-ends.js';

const encoder = new TextEncoder();
const utf8Bytes = (text: string): number => encoder.encode(text).length;

/** 32-bit FNV-1a over the UTF-8 bytes, as 8 hex digits: a short, stable tag, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(HASH_LENGTH, '0');
}

/** The longest file name most file systems take (ext4, APFS, NTFS: 255 bytes or UTF-16 units per segment). */
const MAX_NAME_BYTES = 255;
/** Characters Windows refuses in a file name, and every control character. */
// eslint-disable-next-line no-control-regex
const REFUSED_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
/** Windows device names, whatever the extension and the case (`con.yaml`, `Aux`, `COM1.tar.gz`, `LPT¹`). */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
const HASH_LENGTH = 8;

export interface SafeName {
  /** The file name to write (with the extension). */
  readonly name: string;
  /** Why the name was mapped, undefined when `name` is the input plus its extension. */
  readonly mapped?: string;
}

/** The first `bytes` bytes of `text` in UTF-8, cut at a character's edge. */
function utf8Prefix(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * `name` plus `extension` as one file name every file system and checkout can hold. A name that is fine is kept
 * as it is; one that is not (characters Windows refuses or control characters, a trailing dot or space, a
 * Windows device name, `.` or `..`, empty, longer than 255 bytes of UTF-8) becomes the safe part of it plus
 * `~` and 8 hex digits of its FNV-1a hash: the same name always gives the same file, and two names meet in one
 * only by a 1 in 4 billion chance. `mapped` says why, for the message that records the mapping. Names apart only in case are the caller's
 * to keep apart (it alone sees the folder: compile's `pathsApartInCase`, import's module namer).
 */
export function safeFileName(name: string, extension = ''): SafeName {
  const reasons: string[] = [];
  let safe = name.replace(REFUSED_CHARACTERS, '_');
  if (safe !== name) reasons.push('it holds characters Windows refuses in a file name');
  if (/[. ]$/.test(safe)) {
    safe = trimEnd(safe, '. ');
    reasons.push('it ends in a dot or a space');
  }
  if (safe === '') reasons.push(name === '' ? 'it is empty' : 'it names no file');
  if (DEVICE_NAME.test(safe) || DEVICE_NAME.test(`${safe}${extension}`)) {
    safe = `_${safe}`;
    reasons.push('it is a Windows device name');
  }
  const suffixBytes = utf8Bytes(extension);
  if (utf8Bytes(name) + suffixBytes > MAX_NAME_BYTES) reasons.push(`it is longer than ${MAX_NAME_BYTES} bytes`);
  if (reasons.length === 0) return { name: `${name}${extension}` };
  const hash = fnv1a(name);
  const kept = utf8Prefix(safe, MAX_NAME_BYTES - suffixBytes - HASH_LENGTH - 1);
  return { name: `${kept}~${hash}${extension}`, mapped: reasons.join(', ') };
}
