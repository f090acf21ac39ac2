// The real n8n of campaigns 2, 4, 5 and 7: the pinned runtime with this package installed as a community
// package (test/support/e2e-environment.ts), the sandbox gateway, and five published trigger workflows.
import { startE2eEnvironment, type E2eEnvironment } from '../test/support/e2e-environment';

export const WORKFLOWS = {
	/** Forged callbacks, default settings (Confirm With Status Query: Off). */
	forgedOff: { id: 'relForgedOff00001', webhookId: '7e1ab111-0007-4000-8000-000000000001', parameters: {} },
	/** Forged callbacks, Confirm With Status Query: Emit Only When Confirmed. */
	forgedConfirm: {
		id: 'relForgedConf0001',
		webhookId: '7e1ab111-0007-4000-8000-000000000002',
		parameters: { confirm: 'emitOnlyWhenConfirmed' },
	},
	/** Callback load, default settings. */
	load: { id: 'relLoad0000000001', webhookId: '7e1ab111-0007-4000-8000-000000000003', parameters: {} },
	/** Forged callbacks built from genuine ones: Emit With Confirmed Flag. */
	confirmFlag: {
		id: 'relConfirmFlag001',
		webhookId: '7e1ab111-0007-4000-8000-000000000004',
		parameters: { confirm: 'emitWithConfirmedFlag' },
	},
	/** The same behind filters: approved sales only, Emit Only When Confirmed. */
	confirmFiltered: {
		id: 'relConfirmFilt001',
		webhookId: '7e1ab111-0007-4000-8000-000000000005',
		parameters: { confirm: 'emitOnlyWhenConfirmed', statuses: ['approved'], transactionTypes: ['sale'] },
	},
} as const;

export type WorkflowKey = keyof typeof WORKFLOWS;

function triggerWorkflow(key: WorkflowKey): Record<string, unknown> {
	const { id, webhookId, parameters } = WORKFLOWS[key];
	return {
		id,
		name: `Reliability: ${key}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${webhookId.slice(0, 24)}00000000000f`,
				name: 'Card Gateway Trigger',
				type: 'n8n-nodes-card-gateway.cardGatewayTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId,
				parameters,
				credentials: { cardGatewayApi: { id: 'cgSandbox000000001', name: 'Card Gateway sandbox' } },
			},
		],
		connections: {},
	};
}

export interface ReliabilityN8n {
	env: E2eEnvironment;
	callbackUrl(key: WorkflowKey): string;
	executions(key: WorkflowKey): Promise<Array<{ id: string; status: string; data?: unknown }>>;
	/** Executions of a workflow (ids and status only), cheap enough to poll. */
	count(key: WorkflowKey): Promise<{ total: number; unfinished: number }>;
	healthy(): Promise<boolean>;
	stop(): Promise<void>;
}

export async function startReliabilityN8n(port: number): Promise<ReliabilityN8n> {
	const keys = Object.keys(WORKFLOWS) as WorkflowKey[];
	const env = await startE2eEnvironment({
		port,
		workflows: keys.map(triggerWorkflow),
		publish: keys.map((key) => WORKFLOWS[key].id),
	});
	const n8n = env.n8n;
	return {
		env,
		callbackUrl: (key) => `${n8n.baseUrl}/webhook/${WORKFLOWS[key].webhookId}/callback`,
		executions: (key) => n8n.executions(WORKFLOWS[key].id),
		async count(key) {
			let total = 0;
			let unfinished = 0;
			let cursor: string | undefined;
			do {
				const page = (await n8n.api(
					`/executions?workflowId=${WORKFLOWS[key].id}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
				)) as {
					data: Array<{ status: string; finished?: boolean }>;
					nextCursor?: string;
				};
				total += page.data.length;
				unfinished += page.data.filter((e) => e.status === 'running' || e.status === 'new').length;
				cursor = page.nextCursor ?? undefined;
			} while (cursor);
			return { total, unfinished };
		},
		async healthy() {
			const response = await fetch(`${n8n.baseUrl}/healthz`).catch(() => undefined);
			return response?.status === 200 && n8n.child?.exitCode === null;
		},
		stop: () => env.stop(),
	};
}
