/**
 * A type that no value has, carrying a sentence: when a call is wrong in a way the types can see, the
 * parameter resolves to this, and the editor's red squiggle reads the message (kysely's technique).
 */
export interface PipewrightTypeError<Message extends string> {
  readonly ' pipewrightTypeError': Message;
}
