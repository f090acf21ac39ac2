import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as uploadCRes from './uploadCRes.operation';
import * as uploadMethodUrlResult from './uploadMethodUrlResult.operation';
import * as uploadPaRes from './uploadPaRes.operation';

export const operations: Record<OperationOf<'threeDSecure'>, OperationModule> = { uploadCRes, uploadMethodUrlResult, uploadPaRes };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['threeDSecure'] } },
		options: [
			{
				name: 'Upload CRes',
				value: 'uploadCRes',
				description: 'Send the 3-D Secure 2 challenge result so the payment can finish',
				action: 'Upload a challenge result',
			},
			{
				name: 'Upload Method URL Result',
				value: 'uploadMethodUrlResult',
				description: 'Report how the 3-D Secure 2 method step ended, with the browser data',
				action: 'Upload a method result',
			},
			{
				name: 'Upload PARes',
				value: 'uploadPaRes',
				description: 'Send the 3-D Secure 1 authentication result so the payment can finish',
				action: 'Upload an authentication result',
			},
		],
		default: 'uploadCRes',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
