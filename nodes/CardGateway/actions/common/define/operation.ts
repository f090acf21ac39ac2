// The edit-time API: an operation file's definition, a resource's operations and their parameters.
import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../../../shared/protocol/catalogue';

import { movesMoney } from '../core/facts';
import { sectionHeading } from '../core/fields';
import type { Operation, OperationDefinition, OperationSpec, ReadMany } from '../core/operation';
import { extraFields, optionsCollection, RETRY_ON_FAIL_WARNING } from '../read/options';

/** Typed identity: what an operation file exports. */
export function defineOperation(definition: OperationDefinition): OperationDefinition {
	return definition;
}

/** Typed identity: a read over many records, its query's type shared by `query` and `send`. */
export function defineRead<Query>(read: ReadMany<Query>): ReadMany {
	return read;
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

/**
 * A required parameter with the asterisk in its label: n8n 2.41's node panel draws none for `required`
 * (its label component is given no `required`; only the credential dialog marks its fields), so the
 * label carries it. The field's own display name, which errors name it by, stays as it is.
 */
function markedRequired(property: INodeProperties): INodeProperties {
	return property.required === true ? { ...property, displayName: `${property.displayName} *` } : property;
}

/** Builds one operation's parameters, scoped to it (the pipeline runs it from its spec). */
function buildOperation(spec: OperationSpec): Operation {
	const show = { show: { resource: [spec.resource], operation: [spec.operation] } };
	const scoped = (properties: INodeProperties[]) => updateDisplayOptions(show, properties.map(markedRequired));
	if (spec.readMany) return { spec, description: scoped(spec.readMany.parameters) };
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
	return { spec, description: scoped(properties) };
}
