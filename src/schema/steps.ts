import type { z } from 'zod';
import { STEP_TYPES } from '../catalog/catalog.js';
import { stepSpecRegistry } from './catalog-schemas.js';

/** The wire `spec` of every step type the platform's schema knows, by `type` (from the catalogue). */
export const stepSpecs: Readonly<Record<string, z.ZodType>> = stepSpecRegistry;

/** Step types of the platform, for "did you mean". */
export const KNOWN_STEP_TYPES: readonly string[] = STEP_TYPES;
