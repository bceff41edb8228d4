// The orders feature as other features see it: the link to a sub-account's orders.
export { OrdersLink } from './OrdersLink.tsx';
