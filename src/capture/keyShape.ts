// A key (or a field name) as a pattern: the words that give it its structure are kept, the identifiers in
// it become `__key__` (`user:1042:profile` → `user:__key__:profile`), and the identifiers, joined, are the
// key's number in the workload (what `keys N zipf` draws). Without --keep-names a word is kept only when
// it reads as structure (lower case letters, short); any other segment is an identifier. Binary keys keep
// nothing but a `bin:` prefix.

export const KEY_PLACEHOLDER = '__key__';

export interface KeyShape {
  /** `user:__key__:profile`; a key without identifiers is its own pattern (a single key). */
  pattern: string;
  /** The identifiers of the key, joined by `:`; absent for a key without any (a fixed key). */
  id?: string;
}

const SEPARATORS = /([:./|{}#=,;@ -])/;
/** A word that is structure rather than data: short, lower case letters and underscores. */
const STRUCTURE_WORD = /^[a-z_]{1,20}$/;
/** A structure word glued to a number: `user42`, `shard_7`. */
const WORD_AND_NUMBER = /^([a-z_]{1,20})(\d+)$/;
/** A hex identifier (a hash, a token): one identifier, even when it starts with letters. */
const HEX_ID = /^(?=.*\d)[0-9a-f]{8,}$/i;
/** Text a user may still want hidden: printable ASCII only is read for structure. */
const PRINTABLE = /^[\x21-\x7e]*$/;

/** The shape of one key. `keepNames`: every non-numeric segment is kept as written (the user asked for names). */
export function keyShape(key: string, keepNames = false): KeyShape {
  if (key === '' || !PRINTABLE.test(key)) return { pattern: `bin:${KEY_PLACEHOLDER}`, id: String(key.length) + ':' + hashOf(key) };
  const parts = key.split(SEPARATORS);
  const ids: string[] = [];
  const out = parts.map((part, index) => {
    // Odd indexes are the separators themselves.
    if (index % 2 === 1 || part === '') return part;
    if (isStructure(part, keepNames)) return part;
    const glued = HEX_ID.test(part) ? null : WORD_AND_NUMBER.exec(part);
    if (glued) {
      ids.push(glued[2]);
      return glued[1] + KEY_PLACEHOLDER;
    }
    ids.push(part);
    return KEY_PLACEHOLDER;
  });
  const pattern = out.join('');
  return ids.length > 0 ? { pattern, id: ids.join(':') } : { pattern };
}

/** Kept as written: a structure word, or with --keep-names anything but a number or a hex identifier. */
function isStructure(part: string, keepNames: boolean): boolean {
  if (STRUCTURE_WORD.test(part)) return true;
  if (!keepNames || WORD_AND_NUMBER.test(part)) return false;
  return !/^\d+$/.test(part) && !HEX_ID.test(part);
}

/** A short stable hash, so binary keys still count apart without keeping their bytes. */
function hashOf(text: string): string {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(36);
}
