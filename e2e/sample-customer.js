'use strict';
// The customer's address the demo's seeded sales and the benchmarks' sales send (test data: a
// documentation IP, a fictional street), in the gateway's field names.
const SAMPLE_ADDRESS = {
	address1: '1 Main St',
	city: 'Springfield',
	zip_code: '12345',
	country: 'US',
	phone: '+12065550100',
	ipaddress: '203.0.113.7',
};

module.exports = { SAMPLE_ADDRESS };
