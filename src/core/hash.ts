import { createHash } from 'node:crypto';

/** The hex sha256 of a text (its UTF-8 bytes): how outputs, modules and records tell content apart. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
