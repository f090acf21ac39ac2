// The claims table: a Data Table in n8n's own database, reached through n8n's public API (credential
// "Card Gateway Claims Store API"). Every n8n process (main, webhook processes, workers) sees the same
// rows. What the claim protocol (claims.ts) relies on, in n8n 2.41 (modules/data-table): "update rows"
// is one UPDATE statement whose filter PostgreSQL re-checks on a row another transaction just changed,
// while SQLite runs every data-table transaction alone (BEGIN IMMEDIATE on its single write
// connection), so an update filtered on "owner = ''" is a compare-and-set on each row in both
// databases; and a read sees every row whose write was answered before the read was sent.
//
// The table is bound, not found: by its ID (Table ID in the credential), or by a name exactly one
// table visible to the API key has. A table that vanishes is never replaced by a fresh one.
import {
	NodeOperationError,
	type ICredentialsDisplayOptions,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
} from 'n8n-workflow';

export const CLAIMS_CREDENTIAL = 'cardGatewayClaimsApi';

/** Its label in the node panel: n8n would label it "Credential", as the merchant credential beside it. */
export const CLAIMS_CREDENTIAL_LABEL = 'Claims Store Credential';

// Only "Act Once per Key" uses the claims: the credential shows once a key is set (an expression counts
// as set). n8n ≥ 2.41 reads a condition such as `exists` in a credential's displayOptions as in a
// parameter's (NodeHelpers.checkConditions), though its type for credentials lists plain values only;
// at run time n8n-core hands out no credential whose displayOptions hide it.
const SHOWN_ONCE_A_KEY_IS_SET: IDisplayOptions = { show: { 'options.actOncePerKey': [{ _cnd: { exists: true } }] } };

/** The claims credential's displayOptions in the node's description. */
export const CLAIMS_CREDENTIAL_SHOWN = SHOWN_ONCE_A_KEY_IS_SET as ICredentialsDisplayOptions;

/** One row as the table returns it: any cell may be anything, until its seal verifies (claimSeal.ts). */
export interface ClaimRow {
	id: number;
	key: string;
	owner: string;
	state: string;
	execution: string;
	claimedAt: string;
	before: string;
	mac: string;
}

export type Filter = Array<{ columnName: keyof ClaimRow; condition: 'eq'; value: string }>;

export interface ClaimsTable {
	/** The table's ID in n8n: part of every row's seal. */
	readonly id: string;
	/** Every row matching `filter`, read in one request. */
	find(filter: Filter): Promise<ClaimRow[]>;
	insert(row: Omit<ClaimRow, 'id'>): Promise<void>;
	/** Sets `data` on every row matching `filter`, in one statement; how many rows it changed. */
	update(filter: Filter, data: Partial<Omit<ClaimRow, 'id'>>): Promise<number>;
	remove(filter: Filter): Promise<void>;
	/** Whether an execution of this n8n has ended (or is gone); undefined when n8n does not say. */
	executionEnded(executionId: string): Promise<boolean | undefined>;
}

/** The claims table answered 404: it was deleted (or the Table ID is wrong). */
export class ClaimsTableGone extends Error {}

const COLUMNS = ['key', 'owner', 'state', 'execution', 'claimedAt', 'before', 'mac'].map((name) => ({
	name,
	type: 'string',
}));

/** n8n's execution statuses that mean it runs no more. */
const ENDED = ['success', 'error', 'crashed', 'canceled'];

/** One page of rows: a key holds a handful; more than this is refused rather than read in parts. */
const PAGE = 250;

/** Table IDs by credential (API URL, Table ID or name and project): bound once per n8n process. */
const boundTables = new Map<string, Promise<BoundTable>>();
/** Tables this process saw deleted: never silently created again under the same name. */
const vanished = new Map<string, string>();

interface BoundTable {
	id: string;
	projectId?: string;
	/** As n8n lists them; a table made by an older version of this node lacks some. */
	columns?: Array<{ name: string }>;
}

/**
 * A table made by an older version (a lock row and a lease) lacks the sealed columns. It is refused,
 * not written into: its rows still record which callbacks were acted on, so it is kept, not replaced silently.
 */
function withClaimColumns(table: BoundTable, node: INode): BoundTable {
	const missing = table.columns && COLUMNS.filter(({ name }) => !table.columns?.some((column) => column.name === name));
	if (missing?.length)
		throw new NodeOperationError(
			node,
			`the claims table (ID ${table.id}) lacks the columns ${missing.map(({ name }) => name).join(', ')}: it was made by an older version of this node. Create a new Data Table for the claims and set its ID in the credential; keep the old one until the gateway no longer resends its callbacks (docs/trigger.md, "Upgrading")`,
		);
	return table;
}

type Api = <T>(request: Omit<IHttpRequestOptions, 'url'> & { path: string }) => Promise<T>;

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
				description: `Select one under "${CLAIMS_CREDENTIAL_LABEL}" in this node (shown once Act Once per Key is set). It reaches this n8n’s public API (Settings → n8n API), where the claims are kept in a Data Table.`,
			},
		);
	}
	const text = (name: string) => String(credentials[name] ?? '').trim();
	const baseUrl = text('baseUrl').replace(/\/+$/, '');
	const apiKey = String(credentials.apiKey ?? '');
	const pin = {
		tableId: text('tableId'),
		name: text('tableName') || 'card_gateway_claims',
		projectId: text('projectId'),
	};
	const api: Api = async (request) => {
		const { path, ...rest } = request;
		return await ctx.helpers.httpRequestWithAuthentication.call(ctx, CLAIMS_CREDENTIAL, {
			...rest,
			url: `${baseUrl}${path}`,
			headers: { 'X-N8N-API-KEY': apiKey },
			json: true,
		});
	};
	const cacheKey = [baseUrl, pin.tableId, pin.tableId ? '' : pin.name, pin.projectId].join('\n');
	let bound = boundTables.get(cacheKey);
	if (!bound) {
		bound = bindTable(api, pin, vanished.get(cacheKey), ctx.getNode());
		boundTables.set(cacheKey, bound);
		bound.catch(() => boundTables.delete(cacheKey));
	}
	const { id } = await bound;
	const path = `/data-tables/${encodeURIComponent(id)}/rows`;
	// A 404 on the rows means the table is gone: forget it, and say so (never "try again later").
	const rows: Api = async <T>(request: Parameters<Api>[0]) =>
		await api<T>(request).catch((error: Error) => {
			if (httpStatusOf(error) !== 404) throw error;
			boundTables.delete(cacheKey);
			vanished.set(cacheKey, id);
			throw new ClaimsTableGone(gone(id));
		});
	const filterOf = (filter: Filter) => JSON.stringify({ type: 'and', filters: filter });
	return {
		id,
		async find(filter) {
			const page = await rows<{ data: ClaimRow[]; nextCursor?: string | null }>({
				method: 'GET',
				path,
				qs: { filter: filterOf(filter), limit: PAGE },
			});
			// Pages are read one after another, not at one moment: the protocol needs one read.
			if (page.nextCursor) throw new Error(`the key has more than ${PAGE} rows in the claims table`);
			return page.data;
		},
		async insert(row) {
			await rows({ method: 'POST', path, body: { data: [row], returnType: 'count' } });
		},
		async update(filter, data) {
			const changed = await rows<unknown[]>({
				method: 'PATCH',
				path: `${path}/update`,
				body: { filter: JSON.parse(filterOf(filter)), data, returnData: true },
			});
			return changed.length;
		},
		async remove(filter) {
			await rows({ method: 'DELETE', path: `${path}/delete`, qs: { filter: filterOf(filter) } });
		},
		async executionEnded(executionId) {
			const statusOf = async (wanted: string) =>
				await api<{ status?: string }>({
					method: 'GET',
					path: `/executions/${encodeURIComponent(wanted)}`,
					qs: { includeData: false },
				}).then(
					(execution) => String(execution.status),
					(error: Error) => (httpStatusOf(error) === 404 ? 'notFound' : undefined),
				);
			const status = await statusOf(executionId);
			// n8n answers 404 too for an execution the key's user may not see: gone only if our own is seen.
			if (status === 'notFound') {
				const own = await statusOf(ctx.getExecutionId() ?? '');
				return own !== undefined && own !== 'notFound' ? true : undefined;
			}
			return status === undefined ? undefined : ENDED.includes(status);
		},
	};
}

function gone(id: string): string {
	return `the claims table (ID ${id}) does not exist any more (HTTP 404): it was deleted, or the credential's Table ID is wrong. No table is created in its place, so every item with "Act Once per Key" stops until the credential names a table that exists (docs/trigger.md, "When the claims table is deleted")`;
}

/** The table's ID and project: by Table ID, or by a name exactly one visible table has (created when none has it). */
async function bindTable(
	api: Api,
	pin: { tableId: string; name: string; projectId: string },
	vanishedId: string | undefined,
	node: INode,
): Promise<BoundTable> {
	const stop = (message: string) => new NodeOperationError(node, message);
	const inProject = (table: BoundTable) => !pin.projectId || table.projectId === pin.projectId;
	if (pin.tableId) {
		const table = await api<BoundTable>({
			method: 'GET',
			path: `/data-tables/${encodeURIComponent(pin.tableId)}`,
		}).catch((error: Error) => {
			throw httpStatusOf(error) === 404 ? new ClaimsTableGone(gone(pin.tableId)) : error;
		});
		if (!inProject(table))
			throw stop(`the claims table ${pin.tableId} belongs to project ${table.projectId}, not to ${pin.projectId}`);
		return withClaimColumns(table, node);
	}
	const named = async () => {
		const page = await api<{ data: Array<BoundTable & { name: string }> }>({
			method: 'GET',
			path: '/data-tables',
			qs: { filter: JSON.stringify({ name: pin.name }), limit: PAGE },
		});
		return page.data.filter((table) => table.name === pin.name && inProject(table));
	};
	const found = await named();
	if (found.length > 1)
		throw stop(
			`${found.length} Data Tables named "${pin.name}" are visible to the claims API key (${found.map((table) => `ID ${table.id} in project ${table.projectId}`).join(', ')}): set the credential's Table ID to the one that holds the claims`,
		);
	if (found.length) return withClaimColumns(found[0], node);
	if (vanishedId)
		throw new ClaimsTableGone(
			`${gone(vanishedId)}; it is not created again under the name "${pin.name}" while this n8n runs`,
		);
	try {
		return await api<BoundTable>({
			method: 'POST',
			path: '/data-tables',
			body: { name: pin.name, columns: COLUMNS, ...(pin.projectId ? { projectId: pin.projectId } : {}) },
		});
	} catch (error) {
		// Another process created it in between (HTTP 409): use that one, if it is the only one.
		const raced = await named();
		if (raced.length === 1) return raced[0];
		throw stop(`the Data Table "${pin.name}" could not be created: ${(error as Error).message}`);
	}
}

/** The HTTP status of a failed API call, as n8n's request helpers report it. */
function httpStatusOf(error: Error): number | undefined {
	const candidate = error as Error & {
		httpCode?: string | number;
		statusCode?: number;
		response?: { status?: number };
		cause?: { response?: { status?: number }; status?: number };
	};
	const status = Number(
		candidate.httpCode ??
			candidate.statusCode ??
			candidate.response?.status ??
			candidate.cause?.response?.status ??
			candidate.cause?.status,
	);
	return Number.isInteger(status) ? status : undefined;
}
