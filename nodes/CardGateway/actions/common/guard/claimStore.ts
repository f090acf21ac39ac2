// The claims table: a Data Table in n8n's own database, reached through n8n's public API (credential
// "Card Gateway Claims Store API"). Every n8n process (main, webhook processes, workers) sees the same
// rows. What the protocol relies on (n8n 2.41, modules/data-table): a table name is unique per project
// (a unique index), and "update rows" is one UPDATE statement whose filter PostgreSQL re-checks on a
// row another transaction just changed, while SQLite runs every data-table transaction alone
// (BEGIN IMMEDIATE on its single write connection) — so an update filtered on "holder = ''" is a
// compare-and-set in both databases.
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
} from 'n8n-workflow';

export const CLAIMS_CREDENTIAL = 'cardGatewayClaimsApi';

export interface ClaimRow {
	id: number;
	key: string;
	holder?: string | null;
	until?: number | null;
	state?: string | null;
	execution?: string | null;
	claimedAt?: string | null;
}

// n8n's public API offers eq, neq, like, ilike, gt, gte, lt, lte (not isEmpty): a free lock holds ''.
type Condition = 'eq' | 'lt';
export type Filter = Array<{ columnName: keyof ClaimRow; condition: Condition; value: string | number }>;

export interface ClaimsTable {
	find(filter: Filter): Promise<ClaimRow[]>;
	insert(row: Omit<ClaimRow, 'id'>): Promise<void>;
	/** Sets `data` on every row matching `filter`, in one statement. */
	update(filter: Filter, data: Partial<Omit<ClaimRow, 'id'>>): Promise<void>;
	remove(filter: Filter): Promise<void>;
}

const COLUMNS = [
	{ name: 'key', type: 'string' },
	{ name: 'holder', type: 'string' },
	{ name: 'until', type: 'number' },
	{ name: 'state', type: 'string' },
	{ name: 'execution', type: 'string' },
	{ name: 'claimedAt', type: 'string' },
];

/** Table IDs by API URL and table name: found or created once per n8n process. */
const tableIds = new Map<string, Promise<string>>();

export async function claimsTable(ctx: IExecuteFunctions, itemIndex: number): Promise<ClaimsTable> {
	let credentials: IDataObject;
	try {
		credentials = await ctx.getCredentials(CLAIMS_CREDENTIAL, itemIndex);
	} catch {
		throw new NodeOperationError(
			ctx.getNode(),
			'"Act Once per Key" needs a "Card Gateway Claims Store API" credential: nothing was sent',
			{
				itemIndex,
				description:
					'Select one under "Credential for Card Gateway Claims Store API" in this node. It reaches this n8n’s public API (Settings → n8n API), where the claims are kept in a Data Table.',
			},
		);
	}
	const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const name = String(credentials.tableName ?? '').trim() || 'card_gateway_claims';
	const apiKey = String(credentials.apiKey ?? '');
	const api = async <T>(request: Omit<IHttpRequestOptions, 'url'> & { path: string }): Promise<T> => {
		const { path, ...rest } = request;
		return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CLAIMS_CREDENTIAL, {
			...rest,
			url: `${baseUrl}${path}`,
			headers: { 'X-N8N-API-KEY': apiKey },
			json: true,
		})) as T;
	};
	const cacheKey = `${baseUrl}\n${name}`;
	const tableId = async (): Promise<string> => {
		let id = tableIds.get(cacheKey);
		if (!id) {
			id = findOrCreateTable(api, name, ctx.getNode());
			tableIds.set(cacheKey, id);
			id.catch(() => tableIds.delete(cacheKey));
		}
		return await id;
	};
	const rows = async <T>(request: Omit<IHttpRequestOptions, 'url'> & { subPath: string }): Promise<T> => {
		const { subPath, ...rest } = request;
		return await api<T>({ ...rest, path: `/data-tables/${encodeURIComponent(await tableId())}/rows${subPath}` });
	};
	const filterOf = (filter: Filter) => ({ type: 'and', filters: filter });
	return {
		async find(filter) {
			const page = await rows<{ data: ClaimRow[] }>({
				method: 'GET',
				subPath: '',
				qs: { filter: JSON.stringify(filterOf(filter)), limit: 250 },
			});
			return page.data;
		},
		async insert(row) {
			await rows({ method: 'POST', subPath: '', body: { data: [row], returnType: 'count' } });
		},
		async update(filter, data) {
			await rows({ method: 'PATCH', subPath: '/update', body: { filter: filterOf(filter), data } });
		},
		async remove(filter) {
			await rows({ method: 'DELETE', subPath: '/delete', qs: { filter: JSON.stringify(filterOf(filter)) } });
		},
	};
}

type Api = <T>(request: Omit<IHttpRequestOptions, 'url'> & { path: string }) => Promise<T>;

/** The table's ID; created when missing. Names are unique per project, so two processes creating it at once get one table. */
async function findOrCreateTable(api: Api, name: string, node: INode): Promise<string> {
	const existing = async () => {
		const page = await api<{ data: Array<{ id: string; name: string }> }>({
			method: 'GET',
			path: '/data-tables',
			qs: { filter: JSON.stringify({ name }), limit: 250 },
		});
		return page.data.find((table) => table.name === name)?.id;
	};
	const found = await existing();
	if (found) return found;
	try {
		const created = await api<{ id: string }>({
			method: 'POST',
			path: '/data-tables',
			body: { name, columns: COLUMNS },
		});
		return created.id;
	} catch (error) {
		// Another process created it in between (HTTP 409): use that one.
		const raced = await existing();
		if (raced) return raced;
		throw new NodeOperationError(node, `the Data Table "${name}" could not be created: ${(error as Error).message}`);
	}
}
