import { OPERATIONS, type OperationId } from '../../../shared/protocol/catalogue';
import { MONEY_ACTIONS, type MoneyActionFacts } from '../../../shared/protocol/money';

/** What an operation does to money: its catalogue line names the action, money.ts declares the facts. */
export function moneyFactsOf(operation: { gateway: OperationId }): MoneyActionFacts {
	return MONEY_ACTIONS[OPERATIONS[operation.gateway].money];
}

/** Money leaves or is held: the AI-agent guard, Dry Run, the limits and safe retries apply. */
export function movesMoney(operation: { gateway: OperationId }): boolean {
	return moneyFactsOf(operation).moves;
}

/** What the catalogue says about the plan's operation. */
export function factsOf(plan: { operation: OperationId }) {
	const operation = OPERATIONS[plan.operation];
	const money = MONEY_ACTIONS[operation.money];
	return {
		money,
		statusQuery: operation.statusQuery,
		/** Never resent automatically: follow-ups, and operations whose result no status query finds. */
		neverResent: money.followUp || !operation.statusQuery,
	};
}
