/**
 * What one item did to the money, as the node promises it to the user: on every output item of a
 * money-moving operation (`moneyEffect`) and on every error (so that a run that stops can name the
 * most severe outcome first, and an error item routed on says it too).
 * - notSent: nothing left the machine, or only a status query did;
 * - noMoneyMoved: the gateway said this operation moved nothing (refused, declined, or the order already existed);
 * - pending: the gateway accepted it and has not decided: money may still move;
 * - moved: the gateway said this very operation was approved;
 * - mayHaveMoved: it may have been carried out and the gateway could not say.
 */
export const MONEY_EFFECTS = ['notSent', 'noMoneyMoved', 'pending', 'moved', 'mayHaveMoved'] as const;

export type MoneyEffect = (typeof MONEY_EFFECTS)[number];

/** An error that says what became of the money: n8n's errors keep `context` when they are stored and routed on. */
type MoneyError = Error & { context?: Record<string, unknown> };

/** Marks an error with what is known of the money (in its `context`, which travels with it); returns the same error. */
export function withMoneyEffect<E extends Error>(error: E, effect: MoneyEffect): E {
	const target = error as E & MoneyError;
	target.context = { ...(target.context ?? {}), moneyEffect: effect };
	return error;
}

export function moneyEffectOf(error: Error): MoneyEffect | undefined {
	const effect = (error as MoneyError).context?.moneyEffect;
	return (MONEY_EFFECTS as readonly unknown[]).includes(effect) ? (effect as MoneyEffect) : undefined;
}

/** Errors ranked by what they leave the user to check: nothing sent first, money that may have moved last. */
export function severity(effect: MoneyEffect): number {
	return MONEY_EFFECTS.indexOf(effect);
}

/** The effect in words, for lists of items. */
export const MONEY_EFFECT_WORDS: Readonly<Record<MoneyEffect, string>> = {
	notSent: 'nothing was sent',
	noMoneyMoved: 'no money moved',
	pending: 'accepted, not final: money may still move',
	moved: 'money moved',
	mayHaveMoved: 'money MAY have moved',
};
