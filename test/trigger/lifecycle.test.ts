// The node's description and its webhookMethods, run inside n8n-core's real HookContext (as n8n does
// at activation): nothing is registered at the gateway, and the URL to configure is logged.
import 'reflect-metadata';

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { HookContext } from 'n8n-core';
import { NodeHelpers, Workflow, type INode, type INodeTypes, type IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import { CardGatewayTrigger } from '../../nodes/CardGatewayTrigger/CardGatewayTrigger.node';
import { TYPE_NAME, captureLogs } from '../support/trigger';

const WEBHOOK_ID = '6b0c1f4e-0003-4000-8000-0000000000bb';
/** Where n8n 2.41 looks for a webhook description's own resolvers (n8n-workflow WEBHOOK_RESOLVERS). */
const RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');
interface Resolver {
	template: string;
	resolve(parameters: unknown): unknown;
}

function hookContext(options: {
	baseUrl: string;
	parameters?: INode['parameters'];
	webhookName?: 'default' | 'setup';
}) {
	const nodeType = new CardGatewayTrigger();
	const node: INode = {
		id: 'trigger',
		name: 'Card Gateway Trigger',
		type: TYPE_NAME,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: { cardGatewayApi: { id: 'cred', name: 'Card Gateway account' } },
		webhookId: WEBHOOK_ID,
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: (_type: string, version?: number) => NodeHelpers.getVersionedNodeType(nodeType, version),
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({ id: 'wf-1', nodes: [node], connections: {}, nodeTypes, active: true, settings: {} });
	const additionalData = {
		webhookBaseUrl: options.baseUrl,
		webhookTestBaseUrl: options.baseUrl.replace('/webhook', '/webhook-test'),
	} as unknown as IWorkflowExecuteAdditionalData;
	const name = options.webhookName ?? 'default';
	const webhookData = {
		httpMethod: 'GET',
		node: node.name,
		path: 'callback',
		webhookDescription: nodeType.description.webhooks!.find((hook) => hook.name === name)!,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const ctx = new HookContext(
		workflow,
		workflow.getNode(node.name)!,
		additionalData,
		'trigger',
		'activate',
		webhookData as never,
	);
	return { ctx, methods: nodeType.webhookMethods.default };
}

describe('webhookMethods', () => {
	it('registers nothing: checkExists is false so create runs, logs the URL and succeeds; delete succeeds', async () => {
		const { ctx, methods } = hookContext({ baseUrl: 'https://n8n.example.com/webhook' });
		const { value, logs } = await captureLogs(async () => ({
			exists: await methods.checkExists.call(ctx as never),
			created: await methods.create.call(ctx as never),
			deleted: await methods.delete.call(ctx as never),
		}));
		expect(value).toEqual({ exists: false, created: true, deleted: true });
		expect(logs).toEqual([
			{
				level: 'info',
				message: `Card Gateway Trigger: give the gateway https://n8n.example.com/webhook/${WEBHOOK_ID}/callback as server_callback_url or notify_url; nothing is registered automatically`,
				metadata: undefined,
			},
			{
				level: 'info',
				message:
					'Card Gateway Trigger: deactivated; the gateway keeps calling the old URL until it is removed from its requests',
				metadata: undefined,
			},
		]);
	});

	it('warns when n8n listens on a port the gateway does not call', async () => {
		const { ctx, methods } = hookContext({ baseUrl: 'http://localhost:5678/webhook' });
		const { logs } = await captureLogs(() => methods.create.call(ctx as never));
		expect(logs.map((entry) => [entry.level, entry.message])).toEqual([
			[
				'info',
				`Card Gateway Trigger: give the gateway http://localhost:5678/webhook/${WEBHOOK_ID}/callback as server_callback_url or notify_url; nothing is registered automatically`,
			],
			[
				'warn',
				'Card Gateway Trigger: the callback URL uses port 5678; the gateway only calls ports 80, 443, 8080, 8443',
			],
		]);
	});

	it('accepts port 8443 silently and also logs the return URL when customer returns are handled', async () => {
		const { ctx, methods } = hookContext({
			baseUrl: 'https://n8n.example.com:8443/webhook',
			parameters: {
				customerReturn: true,
				successUrl: 'https://shop.example.com/ok',
				failureUrl: 'https://shop.example.com/ko',
			},
		});
		const { logs } = await captureLogs(() => methods.create.call(ctx as never));
		expect(logs.map((entry) => [entry.level, entry.message])).toEqual([
			[
				'info',
				`Card Gateway Trigger: give the gateway https://n8n.example.com:8443/webhook/${WEBHOOK_ID}/callback as server_callback_url or notify_url; nothing is registered automatically`,
			],
			[
				'info',
				`Card Gateway Trigger: give the gateway https://n8n.example.com:8443/webhook/${WEBHOOK_ID}/return as redirect_url`,
			],
		]);
	});
});

describe('description', () => {
	const { description } = new CardGatewayTrigger();

	it("is a trigger with no inputs, the action node's icons and a required credential", () => {
		expect(description).toMatchObject({
			displayName: 'Card Gateway Trigger',
			name: 'cardGatewayTrigger',
			group: ['trigger'],
			inputs: [],
			// Accepted, and Rejected: callbacks refused for their signature (rejected.ts).
			outputs: ['main', 'main'],
			outputNames: ['Accepted', 'Rejected'],
			icon: { light: 'file:../../icons/cardGateway.svg', dark: 'file:../../icons/cardGateway.dark.svg' },
			credentials: [{ name: 'cardGatewayApi', required: true }],
		});
		expect(description.subtitle).toBeTruthy();
		expect(description.usableAsTool).toBeUndefined();
	});

	it('listens with GET and POST on /callback and on /return; Answer the Gateway sets how /callback is answered', () => {
		expect(description.webhooks!.map((hook) => [hook.name, hook.httpMethod, hook.path])).toEqual([
			['default', 'GET', 'callback'],
			['default', 'POST', 'callback'],
			['setup', 'POST', 'return'],
			['setup', 'GET', 'return'],
		]);
		const answers = (answerGateway: string | undefined) => {
			const { ctx } = hookContext({ baseUrl: 'https://n8n.example.com/webhook', parameters: { answerGateway } });
			const node = ctx.getNode();
			const workflow = (ctx as unknown as { workflow: Workflow }).workflow;
			return description.webhooks!.map((hook) => {
				// n8n 2.41 reads each field through the description's resolver when the parameters are static,
				// older n8n (and any node with an expression among its parameters) evaluates the template.
				const resolvers = (hook as unknown as Record<symbol, Record<string, Resolver> | undefined>)[RESOLVERS];
				return (['responseMode', 'responseData'] as const).map((field) => {
					const evaluated = workflow.expression.getSimpleParameterValue(node, hook[field] as string, 'webhook', {});
					const resolver = resolvers?.[field];
					if (resolver) {
						expect(resolver.template).toBe(hook[field]);
						expect(resolver.resolve(node.parameters)).toEqual(evaluated);
					}
					return evaluated;
				});
			});
		};
		const onReceipt = [
			['onReceived', 'OK'],
			['onReceived', 'OK'],
			['onReceived', 'noData'],
			['onReceived', 'noData'],
		];
		expect(answers(undefined)).toEqual(onReceipt);
		expect(answers('whenReceived')).toEqual(onReceipt);
		// After the workflow finished: n8n answers when the execution ended, with an empty body.
		expect(answers('afterWorkflowFinished')).toEqual([
			['lastNode', 'noData'],
			['lastNode', 'noData'],
			['onReceived', 'noData'],
			['onReceived', 'noData'],
		]);
		expect(description.properties.find((property) => property.name === 'answerGateway')).toMatchObject({
			displayName: 'Answer the Gateway',
			default: 'whenReceived',
			options: [
				expect.objectContaining({ value: 'whenReceived' }),
				expect.objectContaining({ value: 'afterWorkflowFinished' }),
			],
		});
	});

	it('verifies by default, and the notice on the amount caveat sits right before the confirm option', () => {
		const names = description.properties.map((property) => property.name);
		expect(description.properties.find((property) => property.name === 'verifySignature')?.default).toBe(true);
		expect(names.indexOf('confirm')).toBe(names.indexOf('amountNotice') + 1);
		const notice = description.properties.find((property) => property.name === 'amountNotice')!;
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toContain('still passes the signature check');
		const confirm = description.properties.find((property) => property.name === 'confirm')!;
		expect(confirm.options!.map((option) => ('value' in option ? option.value : undefined))).toEqual([
			'off',
			'emitOnlyWhenConfirmed',
			'emitWithConfirmedFlag',
		]);
		const urlNotice = description.properties.find((property) => property.name === 'callbackUrlNotice')!;
		expect(urlNotice.displayName).toContain('80, 443, 8080 and 8443');
	});

	it('has a codex file naming the package-prefixed node type', () => {
		const codex = JSON.parse(
			readFileSync(join(__dirname, '../../nodes/CardGatewayTrigger/CardGatewayTrigger.node.json'), 'utf8'),
		);
		expect(codex).toEqual({
			node: 'n8n-nodes-card-gateway.cardGatewayTrigger',
			nodeVersion: '1.0',
			codexVersion: '1.0',
			categories: ['Finance & Accounting'],
			resources: {
				credentialDocumentation: [{ url: 'https://github.com/card-gateway/n8n-nodes-card-gateway#credentials' }],
				primaryDocumentation: [{ url: 'https://github.com/card-gateway/n8n-nodes-card-gateway#card-gateway-trigger' }],
			},
		});
	});
});

describe('statelessness (queue mode)', () => {
	it("the trigger's modules keep no mutable module-level state", () => {
		const folder = join(__dirname, '../../nodes/CardGatewayTrigger');
		for (const file of [
			'CardGatewayTrigger.node.ts',
			'confirm.ts',
			'description.ts',
			'fields.ts',
			'filters.ts',
			'handle.ts',
			'normalise.ts',
			'rejected.ts',
			'respond.ts',
			'verify.ts',
		]) {
			const source = readFileSync(join(folder, file), 'utf8');
			expect({ file, topLevelLet: /^(export )?(let|var) /m.test(source) }).toEqual({ file, topLevelLet: false });
			expect({ file, staticData: source.includes('getWorkflowStaticData') }).toEqual({ file, staticData: false });
		}
	});
});
