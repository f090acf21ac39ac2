import {
	CALLBACKS,
	CUSTOMER,
	CUSTOMER_EXTRA,
	MONEY,
	cardholderName,
	defineField,
	newMerchantOrderId,
	orderDescription,
	redirectUrl,
	type Field,
} from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

// The v4 sale of the vendor's hosted-fields integration (RSA-SHA256, JSON reply): the card was
// typed into the gateway's own fields in the payer's browser, and the sale carries the ticket
// they produced instead of card data (payneteasy/hosted-fields-examples go-js/paynet.go createSale).
const hostedFieldsToken = defineField('hosted_fields_token', 'text', {
	displayName: 'Hosted Fields Token',
	name: 'hostedFieldsToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description:
		"The single-use payment ticket the gateway's hosted fields gave the payer's browser (onToken). It replaces card number, expiry and CVV.",
});

/** 3-D Secure 2 browser data the examples send with every v4 sale (checkout.js browserInfo, server.js). */
const BROWSER: readonly Field[] = [
	['info', 'Browser Info', 'Whether browser data is sent ("true")'],
	['javascript_enabled', 'Browser JavaScript Enabled', '"true" or "false"'],
	['java_enabled', 'Browser Java Enabled', '"true" or "false" (navigator.javaEnabled())'],
	['accept_language', 'Browser Language', 'navigator.language, e.g. en-US'],
	['color_depth', 'Browser Color Depth', 'screen.colorDepth, e.g. 24'],
	['screen_width', 'Browser Screen Width', 'screen.width in pixels'],
	['screen_height', 'Browser Screen Height', 'screen.height in pixels'],
	['time_zone', 'Browser Time Zone Offset', 'new Date().getTimezoneOffset() in minutes, e.g. -60'],
	['accept_header', 'Browser Accept Header', "The Accept header of the payer's browser"],
	['user_agent', 'Browser User Agent', "The User-Agent header of the payer's browser"],
].map(([suffix, displayName, description]) =>
	defineField(`customer_browser_${suffix}`, 'text', {
		displayName,
		name: `browser${displayName.slice('Browser'.length).replace(/\s+/g, '')}`,
		type: 'string',
		default: '',
		description,
	}),
);

export default defineOperation({
	gateway: 'saleV4',
	menu: {
		name: 'Sale with Hosted Fields Token (V4)',
		description:
			"Charge the card the payer typed into the gateway's hosted fields, by its payment ticket (card data never touches n8n)",
		action: 'Charge a card by hosted fields token',
	},
	required: [newMerchantOrderId, orderDescription, ...MONEY, hostedFieldsToken, ...CUSTOMER, redirectUrl],
	optional: [cardholderName, ...CUSTOMER_EXTRA, ...BROWSER, ...CALLBACKS],
	waitable: true,
});
