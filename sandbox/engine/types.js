// @ts-check
'use strict';
// The shapes the engine passes around, as JSDoc types: no code. A file names one with
// `/** @typedef {import('./types').Order} Order */`; `npx tsc -p sandbox` checks the engine against them.

// Configuration (../config.js) ---------------------------------------------------------------------

/**
 * The options of the configuration file, after ../config.js merged them with startSandbox's.
 * @typedef {object} Options
 * @property {number} port
 * @property {string} host
 * @property {string} basePath           '/paynet', or '' for none
 * @property {number} latencyMs          added to every gateway API request
 * @property {string} verifier           'forge' | 'node'
 * @property {number} pollsBeforeFinal   status queries answered `processing` before the final status
 * @property {boolean} quiet
 * @property {boolean} strictAccept      refuse requests that do not accept JSON
 * @property {'interface' | 'if-sent'} captureControl
 * @property {number} oauthFailureStatus
 * @property {{ enabled: boolean, windowSec: number }} oauthReplay
 * @property {{ attempts: number, delaysMs: number[] }} callbackRetry
 * @property {number} callbackTimeoutMs
 * @property {'GET' | 'POST'} callbackMethod
 * @property {number} requestLogSize
 * @property {string} descriptor
 * @property {FaultSpec[]} faults
 * @property {boolean | string[]} balanceEnabled   get-balance for every merchant, none, or these logins
 * @property {'emulator' | 'documented'} v4StatusReply   v4/status: the vendor emulator's short reply, or api_v4_status's full one
 * @property {string} serverTimeZone    IANA zone of the gateway server (the platform's report layouts)
 * @property {string} userTimeZone      IANA zone of the report layouts' "(User TZ)" columns
 * @property {ReportSettings} report    every merchant's report settings unless its own say otherwise
 */

/**
 * How a merchant's transaction report is served (engine/report-layouts.js).
 * @typedef {object} ReportSettings
 * @property {string} layout                        'sandbox' | 'transactions' | 'orders'
 * @property {'text/csv' | 'text/html'} contentType
 */

/**
 * @typedef {object} FaultSpec
 * @property {string} kind
 * @property {string} [op]          a command name ('sale'), a command key ('v4/payout') or '*'
 * @property {number} [count]
 * @property {number} [latencyMs]
 */

/**
 * The crypto backend (../verifier.js).
 * @typedef {object} Verifier
 * @property {string} name
 * @property {(text: string) => string} sha1Hex
 * @property {(key: string, text: string) => string} hmacSha1Base64
 * @property {(pem: string) => any} loadPublicKey
 * @property {(publicKey: any, text: string, signature: Buffer) => boolean} rsaSha256Verify
 */

/**
 * @typedef {object} Merchant
 * @property {string} login
 * @property {string} controlKey
 * @property {string} descriptor
 * @property {any[]} publicKeys         parsed by the verifier
 * @property {string[]} publicKeySources
 * @property {Endpoint[]} endpoints
 * @property {EndpointGroup[]} groups
 * @property {Map<string, number>} openingBalances   by currency, minor units (get-balance)
 * @property {ReportSettings} report     as configured (the admin API may override it until a reset)
 */

/**
 * A manager: signs get-balance by manager login for the merchants it oversees. Shaped like a
 * merchant (login, control key) so that the OAuth check treats it the same way.
 * @typedef {Merchant & { merchants: Merchant[] }} Manager
 */

/**
 * @typedef {object} Endpoint
 * @property {string} id
 * @property {string} currency
 * @property {Merchant} merchant
 */

/**
 * @typedef {object} EndpointGroup
 * @property {string} id
 * @property {Endpoint[]} endpoints
 * @property {Merchant} merchant
 */

/**
 * @typedef {object} Config
 * @property {Options} options
 * @property {Verifier} verifier
 * @property {Merchant[]} merchants
 * @property {Map<string, Merchant>} byLogin
 * @property {Map<string, Endpoint>} endpoints
 * @property {Map<string, EndpointGroup>} groups
 * @property {Map<string, Manager>} managers
 * @property {string} baseDir
 */

// The gateway's state (state.js) ------------------------------------------------------------------

/**
 * @typedef {object} ReplayGuard
 * @property {(login: string, nonce: string, timestamp: number) => string | null} check
 * @property {() => void} reset
 */

/**
 * Everything the engine reads or changes, one object per sandbox (state.js makes it).
 * @typedef {object} GatewayState
 * @property {Config} config
 * @property {Options} options
 * @property {Verifier} verifier
 * @property {import('../store').Store} store
 * @property {import('../callbacks').Callbacks} callbacks   the delivery queue
 * @property {import('../faults').Faults} faults
 * @property {ReplayGuard | null} replayGuard                null unless option oauthReplay is enabled
 */

// Commands (../commands.js, control-formulas.js) --------------------------------------------------

/** @typedef {Record<string, string>} Params  a request's fields: the first value of each name, trimmed */

/**
 * What a `control` formula concatenates (before the merchant's control key is appended).
 * @typedef {object} SignedFields
 * @property {string} endpointOrGroupId  the id in the URL
 * @property {Params} params
 * @property {string} clientOrderId      '' when absent
 * @property {string} hundredths         the signed amount (amount × 100), or ''
 * @property {string} currency           its currency, or ''
 */

/**
 * @typedef {object} ControlFormula
 * @property {string} name
 * @property {(signed: SignedFields) => string} concatenate
 * @property {'always' | 'if-sent' | null} amountRule   does it sign an amount: always, if the request sends one, or never
 * @property {boolean} loginNamesMerchant               `login` names the merchant (else the endpoint does)
 * @property {string} clientOrderIdField                the field signed as the client order id
 */

/** @typedef {'sale' | 'preauth' | 'verify' | 'payout' | 'payout-check' | 'transfer' | 'eligibility'} OrderKind */

/**
 * A command that carries a request out: (state, context) → the reply. A refusal throws a GatewayError.
 * @typedef {(state: GatewayState, context: RequestContext) => Reply} Handler
 */

/**
 * One entry of the command table (../commands.js).
 * @typedef {object} CommandDefinition
 * @property {string} key                      'v2/sale', 'v4/status', '3ds/v1/upload-pares-result'
 * @property {string} name                     'sale', 'status', 'upload-pares-result'
 * @property {string} version                  'v2', 'v4' or '3ds/v1'
 * @property {'control' | 'oauth'} auth
 * @property {ControlFormula} [formula]        control commands
 * @property {string[]} [oauthMethods]         OAuth commands, and control commands that also take OAuth
 * @property {string[]} required               fields (any spelling of params.js)
 * @property {Handler} handler
 * @property {boolean} currencyRequiredWithAmount
 * @property {OrderKind} [kind]                what the order it starts is
 * @property {string} [transactionType]
 * @property {LedgerKind | null} [ledgerKind]  the ledger entry of an approval (null: no money moves)
 * @property {'required' | 'ref' | 'source-ref' | 'recurring' | 'optional' | 'none'} [card]   how the request names the card
 * @property {'payout' | 'transfer' | 'card-ref'} [destination]                 where the money goes
 * @property {boolean} [v4]
 * @property {string} [resultField]            3-D Secure uploads: the field that carries the result
 * @property {boolean} [amountFromOrder]       capture: signed with the order's amount when it sends none
 * @property {boolean} [noCvv]
 * @property {string} [op]
 * @property {'merchant' | 'manager'} [loginInUrl]   the URL names a merchant or manager login, not an endpoint
 * @property {string[]} [eligibilityCards]          PAN eligibility: the cards checked ('sending', 'receiving')
 */

/**
 * What fault matching and callbacks need of a command: a command definition, or a name alone
 * (the admin API's chargeback; a callback queued without a command is named by its type).
 * @typedef {{ name: string | undefined, key?: string, op?: string }} CommandName
 */

// Requests ---------------------------------------------------------------------------------------

/**
 * An API request as ../server.js hands it to the engine.
 * @typedef {object} GatewayRequest
 * @property {CommandDefinition} definition
 * @property {string} endpointOrGroupId
 * @property {boolean} isGroup
 * @property {[string, string][]} pairs         the body's fields as sent
 * @property {[string, string][]} queryPairs
 * @property {Params} params
 * @property {string | undefined} authorization
 * @property {string} oauthUrl                  the URL OAuth signs
 * @property {string} baseUrl                   'http://host:port', for the URLs of the browser pages
 */

/**
 * Where a request lands: an endpoint, or an endpoint group (whose endpoints are chosen by currency).
 * @typedef {object} Scope
 * @property {Merchant} owner
 * @property {Endpoint} [endpoint]
 * @property {EndpointGroup} [group]
 * @property {Merchant[]} [merchants]   a get-balance by merchant or manager login: whose balances
 * @property {string} key       'endpoint:1001' or 'group:2001': client order ids are unique per scope
 * @property {string} label     for messages
 */

/**
 * A request that passed authentication, as every handler receives it.
 * @typedef {object} RequestContext
 * @property {CommandDefinition} definition
 * @property {Params} params
 * @property {Merchant} merchant
 * @property {Scope} scope
 * @property {number | null} amountMinor   the request's amount in minor units, when it sends one
 * @property {GatewayRequest} request
 * @property {string} serial               this request's serial-number
 * @property {string} baseUrl
 */

/**
 * A gateway reply's fields; a list of records only in get-balance's `balances`.
 * @typedef {Record<string, string | number | undefined | Record<string, string | undefined>[]>} Reply
 */

/** @typedef {{ status: number, html: string }} Page  a browser page and its HTTP status */

// Orders ------------------------------------------------------------------------------------------

/** @typedef {'sale' | 'rebill' | 'payout' | 'transfer' | 'capture' | 'void' | 'cancel' | 'return' | 'chargeback'} LedgerKind */

/**
 * What the sandbox keeps of a card (../cards.js cardSummary): nothing that could be charged elsewhere.
 * @typedef {object} CardSummary
 * @property {string} bin
 * @property {string} lastFour
 * @property {string} type
 * @property {string} masked
 * @property {string} expMonth
 * @property {string} expYear
 * @property {string} holder
 */

/**
 * How an order ends, decided when it is created (../cards.js cvvOutcome) or by 3-D Secure / the admin API.
 * @typedef {object} Outcome
 * @property {string} status          'approved' | 'declined' | 'unknown' | 'error' | 'filtered'
 * @property {boolean} [threeDS]      the payer must pass 3-D Secure first
 * @property {string} [errorCode]
 * @property {string} [errorMessage]
 */

/**
 * @typedef {object} Transaction
 * @property {string | null} serial   the serial-number of the request that made it (null: admin API)
 * @property {string} type            transaction-type: sale, preauth, capture, void, cancel, reversal…
 * @property {string} status
 * @property {number} amountMinor
 * @property {string} at
 * @property {string} [finalAt]
 */

/**
 * @typedef {object} ThreeDSecure
 * @property {boolean} pending
 * @property {string | null} methodResult   threeDSCompInd of a method-URL upload
 * @property {string} [methodAt]
 * @property {'passed' | 'failed'} [result]
 */

/**
 * @typedef {object} OrderUrls
 * @property {string} serverCallback
 * @property {string} notify
 * @property {string} redirect
 * @property {string} redirectSuccess
 * @property {string} redirectFail
 */

/**
 * An order and its money: held (preauth), charged, refunded, charged back, voided, in minor units.
 * @typedef {object} Order
 * @property {string} orderid
 * @property {string} clientOrderId
 * @property {Merchant} merchant
 * @property {string} scopeKey
 * @property {string | null} groupId
 * @property {string} endpointId
 * @property {string} command                the key of the command that started it
 * @property {CommandDefinition} definition
 * @property {OrderKind | undefined} kind
 * @property {string | undefined} transactionType
 * @property {LedgerKind | null | undefined} ledgerKind
 * @property {string} currency
 * @property {number} amountMinor
 * @property {CardSummary | null} card
 * @property {string | null} sourceCardRefId
 * @property {Outcome | null} outcome        null until a hosted form is filled in
 * @property {string} status                 'processing' until final
 * @property {boolean} finalized
 * @property {number} pollsLeft
 * @property {ThreeDSecure | null} threeDS
 * @property {{ pending: boolean, completedAt?: string } | null} form
 * @property {string | null} stayProcessing  the id of the stay-processing fault that holds it
 * @property {number} heldMinor
 * @property {number} chargedMinor
 * @property {number} refundedMinor
 * @property {number} chargedBackMinor
 * @property {number} voidedMinor
 * @property {boolean} voided
 * @property {boolean} cleared
 * @property {string} [clearedAt]
 * @property {{ at: string, reply: Reply } | null} paid   a checked payout, once paid
 * @property {string | null} cardRefId
 * @property {string | null} recurringPaymentId
 * @property {string} email
 * @property {string | undefined} merchantdata
 * @property {OrderUrls} urls
 * @property {string} baseUrl
 * @property {Params} params                 masked
 * @property {Transaction[]} transactions    the first is the order's own
 * @property {string} createdAt
 * @property {Reply | null} reply            the reply a repeated client order id gets again
 * @property {string} [approvalCode]
 */

/**
 * @typedef {object} CardReference
 * @property {string} id
 * @property {Merchant} merchant
 * @property {CardSummary} card
 * @property {string} orderid
 * @property {string} createdAt
 */

/**
 * @typedef {object} RecurringPayment
 * @property {string} id
 * @property {Merchant} merchant
 * @property {string} scopeKey
 * @property {string} endpointId
 * @property {string | null} clientOrderId
 * @property {string | null} cardRefId
 * @property {CardSummary | null} card
 * @property {Params} fields            masked
 * @property {string} status
 * @property {string} createdAt
 * @property {string | null} updatedAt
 */

/**
 * A hosted-fields payment ticket (hosted_fields_token).
 * @typedef {object} PaymentTicket
 * @property {CardSummary} card
 * @property {Outcome} outcome
 * @property {boolean} spent
 */

module.exports = {};
