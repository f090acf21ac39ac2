/**
 * A name as gateways and users vary it, reduced for comparison: without case or separators, so
 * `client_orderid` = `client-order-id` = `ClientOrderId`, `account-verification` = `Account Verification`.
 */
export function comparableName(name: string | undefined): string {
	return (name ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
}
