import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { EVALS } from './replies.js';

/** Pieces both halves of the evals pair use. */

/**
 * An object with any keys, checked by the tool itself. Listed as just `{type: object}`: an empty
 * `properties` says nothing more and costs tokens on every turn.
 */
export const AnyObject = () => z.looseObject({}).meta({ properties: undefined });

/** A pair tool's result: the operation, and the platform's object (validated inside). */
export const Out = z.object({ operation: z.string(), data: z.unknown() });

/** `/api/v1/evals/<segments>`, ids escaped. */
export const evalsPath = (...segments: string[]): string =>
  `${EVALS}/${segments.map((s) => encodeURIComponent(s)).join('/')}`;

/** The `id` an operation on one object needs. */
export function needId(args: { operation: string; id?: string }): string {
  if (args.id?.trim()) return args.id.trim();
  const entity = args.operation.split('.')[0]!;
  const where = entity === 'experiments' ? 'eval_run returns it' : `evals_read ${entity}.list shows them`;
  throw new InputError(`\`id\` is required for ${args.operation}.`, {
    param: 'id',
    fix: `Pass the id of the ${entity.replace(/s$/, '')} (${where}).`,
  });
}

/** Project and run settings pass through; the two the spec names are checked (spec 2 §2.7: store_content, redaction). */
export function checkSettings(settings: Record<string, unknown> | undefined): void {
  const bad = (field: string, type: string) =>
    new InputError(`\`settings.${field}\` is ${type}.`, {
      param: `settings.${field}`,
      fix: `Pass settings.${field} as ${type}, or leave it out.`,
    });
  if (settings?.store_content !== undefined && typeof settings.store_content !== 'boolean')
    throw bad('store_content', 'a boolean');
  const redaction = settings?.redaction;
  if (redaction !== undefined && typeof redaction !== 'boolean' && typeof redaction !== 'string')
    throw bad('redaction', 'a boolean or a mode name');
}
