import { defineField, gatewayOrderId, merchantOrderId, type Field } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

const completion = defineField('threeDSCompInd', 'choice', {
	displayName: 'Method Completion',
	name: 'threeDSCompInd',
	type: 'options',
	options: [
		{ name: 'Completed (Y)', value: 'Y' },
		{ name: 'Not Completed Within 10 Seconds (N)', value: 'N' },
		{ name: 'No Method URL Provided (U)', value: 'U' },
	],
	default: 'Y',
	description: 'How the 3-D Secure Method step ended',
});

const text = (wireName: string, displayName: string, description: string): Field =>
	defineField(wireName, 'text', { displayName, name: wireName, type: 'string', default: '', description });

/** The browser fingerprint the 3-D Secure 2 method step collects. */
const browser = [
	text('threeDSServerTransID', '3DS Server Transaction ID', 'Transaction ID of the 3-D Secure server'),
	text('browserAcceptHeader', 'Browser Accept Header', 'The Accept header the browser sent'),
	text('browserIP', 'Browser IP', "The customer's IP address"),
	text('browserJavaEnabled', 'Browser Java Enabled', 'True or false'),
	text('browserJavascriptEnabled', 'Browser JavaScript Enabled', 'True or false'),
	text('browserLanguage', 'Browser Language', 'Language tag such as en-US'),
	text('browserColorDepth', 'Browser Color Depth', 'Screen color depth in bits'),
	text('browserScreenHeight', 'Browser Screen Height', 'Screen height in pixels'),
	text('browserScreenWidth', 'Browser Screen Width', 'Screen width in pixels'),
	text('browserTZ', 'Browser Time Zone', 'Minutes between UTC and local time'),
	text('browserUserAgent', 'Browser User Agent', 'The User-Agent header the browser sent'),
];

export default defineOperation({
	gateway: 'uploadMethodUrlResult',
	menu: {
		name: 'Upload Method URL Result',
		description: 'Report how the 3-D Secure 2 method step ended, with the browser data',
		action: 'Report the 3-D Secure 2 method step',
	},
	required: [merchantOrderId, gatewayOrderId, completion],
	optional: browser,
	waitable: true,
});
