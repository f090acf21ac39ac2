// The trigger's two type names: n8n's node panel folds a trigger whose type name is the action
// node's plus "Trigger" into the action node's entry (and describes both with the trigger's text),
// so the panel offers cardGatewayEventTrigger; cardGatewayTrigger stays for saved workflows.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IWebhookDescription } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { CardGatewayEventTrigger } from '../../nodes/CardGatewayEventTrigger/CardGatewayEventTrigger.node';
import { CardGatewayTrigger } from '../../nodes/CardGatewayTrigger/CardGatewayTrigger.node';

const action = new CardGateway().description;
const legacy = new CardGatewayTrigger().description;
const offered = new CardGatewayEventTrigger().description;

it('the offered trigger is not folded into the action entry; the legacy one is hidden but unchanged', () => {
	// n8n's rule (editor-ui useActionsGeneration): trigger.name.replace('Trigger', '') === action.name → merged.
	expect(legacy.name.replace('Trigger', '')).toBe(action.name);
	expect(offered.name.replace('Trigger', '')).not.toBe(action.name);
	expect(legacy.hidden).toBe(true);
	expect(offered.hidden).toBeUndefined();
	expect(offered).toMatchObject({
		name: 'cardGatewayEventTrigger',
		displayName: 'Card Gateway Trigger',
		version: 2,
		group: ['trigger'],
	});
	const sameParts = (description: typeof legacy) => ({ ...description, name: '', version: 0, hidden: undefined });
	expect(sameParts(offered)).toEqual(sameParts(legacy));
	expect(action.description).not.toBe(offered.description);
	const trigger = new CardGatewayEventTrigger();
	expect(trigger.webhook).toBe(new CardGatewayTrigger().webhook);
});

it('both types are in the package, each with its codex file', () => {
	const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));
	expect(pkg.n8n.nodes).toEqual(
		expect.arrayContaining([
			'dist/nodes/CardGatewayTrigger/CardGatewayTrigger.node.js',
			'dist/nodes/CardGatewayEventTrigger/CardGatewayEventTrigger.node.js',
		]),
	);
	const codex = JSON.parse(
		readFileSync(path.join(__dirname, '../../nodes/CardGatewayEventTrigger/CardGatewayEventTrigger.node.json'), 'utf8'),
	);
	expect(codex.node).toBe('n8n-nodes-card-gateway.cardGatewayEventTrigger');
	expect(codex.alias).toEqual(expect.arrayContaining(['PaynetEasy', 'payment callback']));
});

it('the panel lists each URL once, and /return only while Handle Customer Return is on', () => {
	const listed = (hooks: IWebhookDescription[]) => hooks.filter((hook) => hook.ndvHideUrl !== true);
	const shown = listed(offered.webhooks!);
	expect(shown.map((hook) => [hook.path, hook.ndvHideMethod, hook.ndvHideUrl])).toEqual([
		['callback', true, undefined],
		['return', true, '={{ !$parameter["customerReturn"] }}'],
	]);
	expect(offered.properties.find((p) => p.name === 'callbackUrlNotice')!.displayName).toContain(
		"/webhook/&lt;this trigger's ID&gt;/callback",
	);
});
