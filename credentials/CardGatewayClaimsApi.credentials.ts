import type { ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * n8n's own public API, used as the store of "Act Once per Key" claims: a Data Table in n8n's
 * database, shared by every n8n process (main, webhook processes, workers). A community node cannot
 * reach Data Tables from inside a workflow (n8n 2.41 lets only its own Data Table nodes use them),
 * so the node goes through the public API like any other client.
 */
export class CardGatewayClaimsApi implements ICredentialType {
	name = 'cardGatewayClaimsApi';

	displayName = 'Card Gateway Claims Store API';

	icon = { light: 'file:../icons/cardGateway.svg', dark: 'file:../icons/cardGateway.dark.svg' } as const;

	documentationUrl =
		'https://github.com/card-gateway/n8n-nodes-card-gateway/blob/main/docs/trigger.md#act-once-per-callback';

	properties: INodeProperties[] = [
		{
			displayName:
				'Only for the option "Act Once per Key" of the Card Gateway node: claims are kept in a Data Table of this n8n, reached through its public API. Create an API key under Settings → n8n API (scopes: data tables and their rows).',
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'n8n API URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://localhost:5678/api/v1',
			placeholder: 'e.g. https://n8n.example.com/api/v1',
			description: "This n8n's public API, ending in /api/v1; every n8n process must reach it",
			required: true,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Data Table ID',
			name: 'tableId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 8Xh2kQ0pLm3nR7sT',
			description:
				'Recommended: the ID of the Data Table that holds the claims (in its URL in n8n). The node then uses that table only and stops, sending nothing, if it is deleted. Empty: the table named below.',
		},
		{
			displayName: 'Data Table Name',
			name: 'tableName',
			type: 'string',
			default: 'card_gateway_claims',
			description:
				'Used when no ID is set: the one table of this name the API key can see (more than one stops the item); created on first use. Workflows that must not act twice on the same key use the same table.',
			required: true,
		},
		{
			displayName: 'Project ID',
			name: 'projectId',
			type: 'string',
			default: '',
			description:
				'Optional: the project the table must belong to. Tables of this name in other projects are then ignored, and a new one is created here.',
		},
	];

	// No `authenticate`: n8n would then offer a "Custom API Call" in the Card Gateway node's menus
	// (any credential with one makes the node a proxy for it). The node sends the key itself (claimStore.ts).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/data-tables',
			qs: { limit: 1 },
			headers: { 'X-N8N-API-KEY': '={{$credentials.apiKey}}' },
		},
	};
}
