import { stmt, type DB } from '../db.ts';

// What the Sandbox lists: currencies with their chains, fees and limits, markets and prices. Figures
// are modelled on the live service's public pages (see simulator/README.md (endpoints section)), rounded.

export interface ChainDef {
  chain: string;
  name_en: string;
  name_cn: string;
  contract_address?: string;
  decimal: number;
  is_tag?: 1;
  fee_fix: string;
  fee_percent?: string;
  min_confirms: number;
  min_deposit: string;
  is_withdraw_disabled?: 1;
  is_deposit_disabled?: 1;
}

export interface CurrencyDef {
  currency: string;
  name: string;
  name_cn: string;
  price: string;
  low_cap?: 1;
  withdraw_min: string;
  withdraw_each: string;
  withdraw_day: string;
  review_above: string;
  manual_above: string;
  chains: ChainDef[];
}

export const CURRENCIES: CurrencyDef[] = [
  {
    currency: 'USDT',
    name: 'Tether',
    name_cn: '泰达币',
    price: '1',
    withdraw_min: '10',
    withdraw_each: '1000000',
    withdraw_day: '5000000',
    review_above: '20000',
    manual_above: '100000',
    chains: [
      {
        chain: 'ETH',
        name_en: 'ETH/ERC20',
        name_cn: '以太坊/ERC20',
        contract_address: '0xdac17f958d2ee523a2206206994597c13d831ec7',
        decimal: 6,
        fee_fix: '4.5',
        min_confirms: 12,
        min_deposit: '1',
      },
      {
        chain: 'TRX',
        name_en: 'Tron/TRC20',
        name_cn: '波场/TRC20',
        contract_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        decimal: 6,
        fee_fix: '1',
        min_confirms: 20,
        min_deposit: '1',
      },
      {
        chain: 'TON',
        name_en: 'Toncoin',
        name_cn: 'TON',
        contract_address: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
        decimal: 6,
        is_tag: 1,
        fee_fix: '0.3',
        min_confirms: 1,
        min_deposit: '1',
      },
    ],
  },
  {
    currency: 'BTC',
    name: 'Bitcoin',
    name_cn: '比特币',
    price: '64250.5',
    withdraw_min: '0.001',
    withdraw_each: '50',
    withdraw_day: '200',
    review_above: '0.5',
    manual_above: '5',
    chains: [
      { chain: 'BTC', name_en: 'Bitcoin', name_cn: '比特币', decimal: 8, fee_fix: '0.0002', min_confirms: 2, min_deposit: '0.0001' },
      // The one chain with withdrawal switched off: deposits still work.
      {
        chain: 'BSC',
        name_en: 'BNB Smart Chain/BEP20',
        name_cn: '币安智能链/BEP20',
        contract_address: '0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c',
        decimal: 8,
        fee_fix: '0.00001',
        min_confirms: 15,
        min_deposit: '0.0001',
        is_withdraw_disabled: 1,
      },
    ],
  },
  {
    currency: 'ETH',
    name: 'Ethereum',
    name_cn: '以太坊',
    price: '3120.25',
    withdraw_min: '0.01',
    withdraw_each: '1000',
    withdraw_day: '5000',
    review_above: '10',
    manual_above: '100',
    chains: [
      {
        chain: 'ETH',
        name_en: 'ETH/ERC20',
        name_cn: '以太坊/ERC20',
        decimal: 8,
        fee_fix: '0.0015',
        min_confirms: 12,
        min_deposit: '0.001',
      },
      {
        chain: 'ARBEVM',
        name_en: 'Arbitrum One',
        name_cn: 'Arbitrum One',
        decimal: 8,
        fee_fix: '0.0001',
        min_confirms: 20,
        min_deposit: '0.001',
      },
    ],
  },
  {
    currency: 'SOL',
    name: 'Solana',
    name_cn: 'Solana',
    price: '142.8',
    withdraw_min: '0.1',
    withdraw_each: '50000',
    withdraw_day: '200000',
    review_above: '200',
    manual_above: '2000',
    chains: [
      {
        chain: 'SOL',
        name_en: 'Solana',
        name_cn: 'Solana',
        decimal: 8,
        fee_fix: '0.01',
        fee_percent: '0.05',
        min_confirms: 1,
        min_deposit: '0.01',
      },
    ],
  },
  {
    currency: 'XRP',
    name: 'Ripple',
    name_cn: '瑞波币',
    price: '0.52',
    withdraw_min: '20',
    withdraw_each: '5000000',
    withdraw_day: '20000000',
    review_above: '50000',
    manual_above: '500000',
    chains: [
      { chain: 'XRP', name_en: 'Ripple', name_cn: '瑞波币', decimal: 6, is_tag: 1, fee_fix: '0.2', min_confirms: 1, min_deposit: '1' },
    ],
  },
  {
    currency: 'TRX',
    name: 'TRON',
    name_cn: '波场',
    price: '0.118',
    withdraw_min: '10',
    withdraw_each: '10000000',
    withdraw_day: '50000000',
    review_above: '200000',
    manual_above: '2000000',
    chains: [{ chain: 'TRX', name_en: 'Tron/TRC20', name_cn: '波场/TRC20', decimal: 6, fee_fix: '1', min_confirms: 20, min_deposit: '1' }],
  },
  {
    currency: 'DOGE',
    name: 'Dogecoin',
    name_cn: '狗狗币',
    price: '0.1425',
    withdraw_min: '30',
    withdraw_each: '10000000',
    withdraw_day: '50000000',
    review_above: '150000',
    manual_above: '1500000',
    chains: [{ chain: 'DOGE', name_en: 'Dogecoin', name_cn: '狗狗币', decimal: 8, fee_fix: '5', min_confirms: 40, min_deposit: '10' }],
  },
  {
    currency: 'GT',
    name: 'GateToken',
    name_cn: 'GateToken',
    price: '8.42',
    withdraw_min: '0.11',
    withdraw_each: '20000',
    withdraw_day: '20000',
    review_above: '2000',
    manual_above: '10000',
    chains: [
      { chain: 'GTEVM', name_en: 'GateChain', name_cn: 'GateChain', decimal: 8, fee_fix: '0.01', min_confirms: 5, min_deposit: '0.01' },
      {
        chain: 'ETH',
        name_en: 'ETH/ERC20',
        name_cn: '以太坊/ERC20',
        contract_address: '0xe66747a101bff2dba3697199dcce5b743b454759',
        decimal: 8,
        fee_fix: '15',
        min_confirms: 12,
        min_deposit: '1',
      },
    ],
  },
  {
    currency: 'USDC',
    name: 'USD Coin',
    name_cn: 'USD Coin',
    price: '1',
    withdraw_min: '10',
    withdraw_each: '1000000',
    withdraw_day: '5000000',
    review_above: '20000',
    manual_above: '200000',
    chains: [
      {
        chain: 'ETH',
        name_en: 'ETH/ERC20',
        name_cn: '以太坊/ERC20',
        contract_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        decimal: 6,
        fee_fix: '4.5',
        min_confirms: 12,
        min_deposit: '1',
      },
      {
        chain: 'SOL',
        name_en: 'Solana',
        name_cn: 'Solana',
        contract_address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        decimal: 6,
        fee_fix: '1',
        min_confirms: 1,
        min_deposit: '1',
      },
    ],
  },
  // Low-liquidity tokens: held and listed, but the wallet API refuses them (§4.1 getLowCapExchangeList).
  {
    currency: 'PEPEX',
    name: 'PepeX',
    name_cn: 'PepeX',
    price: '0.0000021',
    low_cap: 1,
    withdraw_min: '1000000',
    withdraw_each: '100000000000',
    withdraw_day: '100000000000',
    review_above: '100000000000',
    manual_above: '100000000000',
    chains: [
      {
        chain: 'ETH',
        name_en: 'ETH/ERC20',
        name_cn: '以太坊/ERC20',
        contract_address: '0x4a7f0e1e0d8c2f6b1a9b3c5d7e9f1a3b5c7d9e1f',
        decimal: 8,
        fee_fix: '2000000',
        min_confirms: 12,
        min_deposit: '1000000',
      },
    ],
  },
  {
    currency: 'MOONC',
    name: 'MoonCat',
    name_cn: 'MoonCat',
    price: '0.00042',
    low_cap: 1,
    withdraw_min: '10000',
    withdraw_each: '1000000000',
    withdraw_day: '1000000000',
    review_above: '1000000000',
    manual_above: '1000000000',
    chains: [
      {
        chain: 'BSC',
        name_en: 'BNB Smart Chain/BEP20',
        name_cn: '币安智能链/BEP20',
        contract_address: '0x2b9c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e',
        decimal: 8,
        fee_fix: '5000',
        min_confirms: 15,
        min_deposit: '10000',
      },
    ],
  },
];

export const PAIRS: { id: string; amount_precision: number; precision: number; min_base: string; min_quote: string }[] = [
  { id: 'BTC_USDT', amount_precision: 6, precision: 1, min_base: '0.00001', min_quote: '3' },
  { id: 'ETH_USDT', amount_precision: 4, precision: 2, min_base: '0.0001', min_quote: '3' },
  { id: 'SOL_USDT', amount_precision: 3, precision: 2, min_base: '0.01', min_quote: '3' },
  { id: 'XRP_USDT', amount_precision: 1, precision: 4, min_base: '1', min_quote: '3' },
  { id: 'TRX_USDT', amount_precision: 1, precision: 5, min_base: '1', min_quote: '3' },
  { id: 'DOGE_USDT', amount_precision: 1, precision: 5, min_base: '1', min_quote: '3' },
  { id: 'GT_USDT', amount_precision: 2, precision: 3, min_base: '0.01', min_quote: '3' },
  { id: 'USDC_USDT', amount_precision: 2, precision: 4, min_base: '1', min_quote: '1' },
  { id: 'ETH_BTC', amount_precision: 4, precision: 6, min_base: '0.0001', min_quote: '0.00001' },
];

/** Settlement currencies of futures accounts, and of delivery accounts. */
export const FUTURES_SETTLES = ['usdt', 'btc', 'usd'] as const;
export const DELIVERY_SETTLES = ['usdt'] as const;

/** Writes the catalog once; a world copy or a reset leaves it as it is. */
export function seedCatalog(db: DB): void {
  if (stmt(db, 'SELECT 1 FROM currencies LIMIT 1').get()) return;
  const cur =
    db.prepare(`INSERT INTO currencies (currency, name, name_cn, low_cap, withdraw_min, withdraw_each, withdraw_day, review_above, manual_above, ord)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const ch =
    db.prepare(`INSERT INTO chains (currency, chain, name_en, name_cn, contract_address, is_deposit_disabled, is_withdraw_disabled, decimal,
    is_tag, fee_fix, fee_percent, min_confirms, min_deposit, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const price = db.prepare('INSERT OR REPLACE INTO prices (currency, usdt) VALUES (?, ?)');
  const pair = db.prepare(
    'INSERT INTO currency_pairs (id, base, quote, amount_precision, precision, min_base, min_quote) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  CURRENCIES.forEach((c, i) => {
    cur.run(
      c.currency,
      c.name,
      c.name_cn,
      c.low_cap ?? 0,
      c.withdraw_min,
      c.withdraw_each,
      c.withdraw_day,
      c.review_above,
      c.manual_above,
      i,
    );
    price.run(c.currency, c.price);
    c.chains.forEach((x, j) =>
      ch.run(
        c.currency,
        x.chain,
        x.name_en,
        x.name_cn,
        x.contract_address ?? '',
        x.is_deposit_disabled ?? 0,
        x.is_withdraw_disabled ?? 0,
        x.decimal,
        x.is_tag ?? 0,
        x.fee_fix,
        x.fee_percent ?? '0',
        x.min_confirms,
        x.min_deposit,
        j,
      ),
    );
  });
  for (const p of PAIRS) {
    const [base, quote] = p.id.split('_') as [string, string];
    pair.run(p.id, base, quote, p.amount_precision, p.precision, p.min_base, p.min_quote);
  }
}

export interface CurrencyRow {
  currency: string;
  name: string;
  name_cn: string;
  low_cap: number;
  deposit_fee: string;
  withdraw_min: string;
  withdraw_each: string;
  withdraw_day: string;
  review_above: string;
  manual_above: string;
}
export interface ChainRow {
  currency: string;
  chain: string;
  name_en: string;
  name_cn: string;
  contract_address: string;
  is_disabled: number;
  is_deposit_disabled: number;
  is_withdraw_disabled: number;
  decimal: number;
  is_tag: number;
  fee_fix: string;
  fee_percent: string;
  min_confirms: number;
  min_deposit: string;
}

export function currencyRow(db: DB, currency: string): CurrencyRow | undefined {
  return stmt(db, 'SELECT * FROM currencies WHERE currency = ?').get(currency) as CurrencyRow | undefined;
}

export function chainsOf(db: DB, currency: string): ChainRow[] {
  return stmt(db, 'SELECT * FROM chains WHERE currency = ? ORDER BY ord').all(currency) as ChainRow[];
}

export function listCurrencies(db: DB): CurrencyRow[] {
  return stmt(db, 'SELECT * FROM currencies ORDER BY ord').all() as CurrencyRow[];
}

export function priceOf(db: DB, currency: string): string | undefined {
  return (stmt(db, 'SELECT usdt FROM prices WHERE currency = ?').get(currency) as { usdt: string } | undefined)?.usdt;
}
