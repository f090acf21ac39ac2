import type { INodeTypeDescription } from 'n8n-workflow';

import { CardGatewayTrigger } from '../CardGatewayTrigger/CardGatewayTrigger.node';

/**
 * The Card Gateway Trigger that new workflows get. n8n's node panel folds a trigger into the
 * action node whose type name is the trigger's minus "Trigger" (cardGatewayTrigger → cardGateway)
 * and then describes both with the trigger's text; this type name keeps two entries, each with its
 * own description. It behaves exactly like cardGatewayTrigger, which stays (hidden from the panel)
 * so that saved workflows keep running.
 */
export class CardGatewayEventTrigger extends CardGatewayTrigger {
	description: INodeTypeDescription = {
		...new CardGatewayTrigger().description,
		name: 'cardGatewayEventTrigger',
		hidden: undefined,
		// Version 1 exists only for cardGatewayTrigger's saved workflows (see its comment).
		version: 2,
	};
}
