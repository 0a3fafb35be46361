import type { z } from 'zod';
import { stepSpecRegistry } from './catalog-schemas.js';

/** The wire `spec` of every step type the platform's schema knows, by `type` (from the catalogue). */
export const stepSpecs: Readonly<Record<string, z.ZodType>> = stepSpecRegistry;
