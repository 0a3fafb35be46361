/**
 * A type that no value has, carrying a sentence: when a call is wrong in a way the types can see, the
 * parameter resolves to this, and the editor's red squiggle reads the message (kysely's technique). The sentence is
 * the type's one property name, so the last line of the checker's error, the one an editor shows first when it
 * folds the rest, reads it: `Property 'a Run step cannot run in an Approval stage; ...' is missing in type ...`.
 */
export type PipewrightTypeError<Message extends string> = {
  readonly [Sentence in Message]: Message;
};

/** `an` before a word that starts with a vowel (`an Approval stage`), else `a` (`a Run step`). */
export type Article<Word extends string> =
  Word extends `${'A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u'}${string}` ? 'an' : 'a';

/** The run-time twin of `Article`: the messages compile prints say what the types say. */
export const article = (word: string): 'a' | 'an' => (/^[aeiou]/i.test(word) ? 'an' : 'a');
