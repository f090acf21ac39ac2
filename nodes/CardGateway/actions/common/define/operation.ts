// The edit-time API: an operation file's definition, a resource's operations and their parameters.
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../../../shared/protocol/catalogue';

import { movesMoney } from '../core/facts';
import { sectionHeading } from '../core/fields';
import type { Operation, OperationDefinition, OperationSpec } from '../core/operation';
import { extraFields, optionsCollection, RETRY_ON_FAIL_WARNING } from '../read/options';
import { executeOperation } from '../pipeline/execute';

/** Typed identity: what an operation file exports. */
export function defineOperation(definition: OperationDefinition): OperationDefinition {
	return definition;
}

/**
 * A resource of the node from its operations, one entry each (key = the Operation parameter value):
 * the Operation menu (A–Z, as n8n lists it), every operation's parameters and its execution.
 */
export function defineResource<const D extends Record<string, OperationDefinition>>(
	resource: string,
	label: string,
	defaultOperation: keyof D & string,
	definitions: D,
): { operations: { [K in keyof D]: Operation }; description: INodeProperties[] } {
	const operations = Object.fromEntries(
		Object.entries(definitions).map(([operation, definition]) => [
			operation,
			buildOperation({ ...definition, resource, operation, label: `${label} → ${definition.menu.name}` }),
		]),
	) as { [K in keyof D]: Operation };
	const menu: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: Object.entries(definitions)
			.map(([value, { menu: entry }]) => ({
				name: entry.name,
				value,
				description: entry.description,
				action: entry.action,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	return {
		operations,
		description: [menu, ...Object.values(operations).flatMap((operation) => operation.description)],
	};
}

/** Builds one operation's parameters (scoped to it) and its per-item execution. */
function buildOperation(spec: OperationSpec): Operation {
	const show = { show: { resource: [spec.resource], operation: [spec.operation] } };
	if (spec.readMany) {
		const { readMany } = spec;
		return {
			spec,
			description: updateDisplayOptions(show, readMany.parameters),
			// The router runs readMany for the whole run; one item's execution is the same run's output.
			async execute(this: IExecuteFunctions, itemIndex: number) {
				return (await readMany.run(this))[itemIndex]?.json ?? {};
			},
		};
	}
	const gateway = OPERATIONS[spec.gateway];
	const money = movesMoney(spec);
	const properties: INodeProperties[] = [];
	if (money) {
		properties.push({ displayName: RETRY_ON_FAIL_WARNING, name: 'retryNotice', type: 'notice', default: '' });
	}
	for (const field of spec.required ?? []) {
		properties.push(...sectionHeading(field), { ...field.property, required: field.merchantOrderId !== 'new' });
	}
	for (const field of spec.main ?? []) properties.push(...sectionHeading(field), field.property);
	const optional = [...(spec.optional ?? [])].sort((a, b) =>
		a.property.displayName.localeCompare(b.property.displayName),
	);
	if (optional.length) {
		properties.push({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: optional.map((field) => field.property),
		});
	}
	properties.push(
		extraFields,
		optionsCollection({
			movesMoney: money,
			waitable: !!spec.waitable,
			schemeChoice: !!spec.schemeChoice,
			defaultScheme: gateway.auth,
		}),
	);
	const description = updateDisplayOptions(show, properties);
	return {
		spec,
		description,
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeOperation(this, spec, itemIndex);
		},
	};
}
