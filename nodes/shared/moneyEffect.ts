/**
 * What an item's error says about the money, so that a run that stops can name the most severe
 * outcome first. Ordered from least to most severe.
 */
export const MONEY_EFFECTS = ['notSent', 'noMoneyMoved', 'mayHaveMoved'] as const;

export type MoneyEffect = (typeof MONEY_EFFECTS)[number];

const effects = new WeakMap<Error, MoneyEffect>();

/** Marks an error with what is known of the money; returns the same error. */
export function withMoneyEffect<E extends Error>(error: E, effect: MoneyEffect): E {
	effects.set(error, effect);
	return error;
}

export function moneyEffectOf(error: Error): MoneyEffect | undefined {
	return effects.get(error);
}

export function severity(effect: MoneyEffect): number {
	return MONEY_EFFECTS.indexOf(effect);
}
