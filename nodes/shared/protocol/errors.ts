/** Bad input found before anything is sent; `field` names the parameter at fault. */
export class GatewayInputError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'GatewayInputError';
	}
}
