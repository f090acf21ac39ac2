// The gateway's status words: each spelled once here, with what it says. A leaf of protocol/, so that
// every module (money.ts, reply.ts, the node's stages) can read it without an import cycle.

/**
 * Every status a gateway reply can carry (gateway-facts §5.3, §8), the one place each word is spelled,
 * and what it says: `final`, the order no longer changes by itself; `refused`, final with no money
 * moved; `reportFilter`, the transaction report's status filter offers it (§15). Listed in the order
 * the node shows them in its menus.
 */
const STATUS_FACTS = {
	approved: { final: true, refused: false, reportFilter: true },
	declined: { final: true, refused: true, reportFilter: true },
	filtered: { final: true, refused: true, reportFilter: true },
	processing: { final: false, refused: false, reportFilter: false },
	error: { final: true, refused: true, reportFilter: false },
	unknown: { final: true, refused: false, reportFilter: false },
} as const;

export type GatewayStatus = keyof typeof STATUS_FACTS;
type StatusFact = keyof (typeof STATUS_FACTS)[GatewayStatus];

/** Every status word, in menu order. */
export const GATEWAY_STATUSES = Object.keys(STATUS_FACTS) as readonly GatewayStatus[];

/** The status words by name (`STATUS.approved`): code reads them here, so a misspelling does not compile. */
export const STATUS = Object.fromEntries(GATEWAY_STATUSES.map((word) => [word, word])) as {
	readonly [Word in GatewayStatus]: Word;
};

/** The status words that have `fact`, in menu order. */
export function statusesWhere(fact: StatusFact): GatewayStatus[] {
	return GATEWAY_STATUSES.filter((word) => STATUS_FACTS[word][fact]);
}

/** Whether `word` (as the reply spells it) is a status and has `fact`. */
export function statusHas(word: string | undefined, fact: StatusFact): boolean {
	return isGatewayStatus(word) && STATUS_FACTS[word][fact];
}

export function isGatewayStatus(word: string | undefined): word is GatewayStatus {
	return word !== undefined && Object.prototype.hasOwnProperty.call(STATUS_FACTS, word);
}
