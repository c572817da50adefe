import type { ToolContext } from './context.js';
import { AbortedError, InputError } from './errors.js';

/** A destructive action, described for the person who must agree to it. */
export interface DestructiveAction {
  /** Exactly what will happen, in words a person reads in the confirmation form. */
  action: string;
  /** What `confirm` must equal when the client cannot ask: the team name or the key id. */
  expected: string;
  /** What `expected` is, for the error ("the team name"). */
  what: string;
  /** The caller's `confirm` argument. */
  given: string | undefined;
}

/**
 * Lets a destructive action go ahead only with the person's agreement: asked through form
 * elicitation when the client can show a form (a `confirm` the model filled in does not count
 * then), else by the caller's `confirm` argument equal to the team name or key id. Throws, having
 * changed nothing, when the person declines or the argument is missing or wrong.
 */
export async function confirmAction(
  ctx: Pick<ToolContext, 'confirm'>,
  step: DestructiveAction,
): Promise<void> {
  const answer = await ctx.confirm(step.action);
  if (answer === 'accepted') return;
  if (answer === 'declined') {
    throw new AbortedError('The person declined the confirmation; nothing was changed.', {
      fix: 'Do not try again unless the person asks for it.',
    });
  }
  if (step.given === step.expected) return;
  const how = `Show the person what will happen ("${step.action}"); if they agree, call again with confirm: "${step.expected}" (${step.what}).`;
  throw new InputError(
    step.given === undefined
      ? 'This action needs confirmation, and this client cannot ask the person; nothing was sent.'
      : `\`confirm\` is not ${step.what}; nothing was sent.`,
    { param: 'confirm', fix: how },
  );
}
