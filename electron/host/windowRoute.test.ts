import { describe, expect, it } from 'vitest';
import { routeOf } from './windowRoute.ts';

describe('routeOf', () => {
  it.each([
    ['app://desk/index.html#/activity', 'activity'],
    ['app://desk/index.html#/sub-accounts/12345', 'sub-accounts/12345'],
    ['app://desk/index.html#/withdrawals?status=EXTPEND', 'withdrawals?status=EXTPEND'],
    ['app://desk/index.html#/activity?show=unfinished', 'activity?show=unfinished'],
    ['app://desk/index.html#/overview?currency=BTC', 'overview?currency=BTC'],
  ])('keeps the whole location of %s', (url, route) => {
    expect(routeOf(url)).toBe(route);
  });

  // What is kept is loaded back after the app's own address: nothing that could leave the app or smuggle markup.
  it.each([
    'app://desk/index.html',
    'app://desk/index.html#/',
    'app://desk/index.html#//evil.example/x',
    'app://desk/index.html#/https://evil.example',
    'app://desk/index.html#/activity#again',
    'app://desk/index.html#/activity?x=<script>',
    `app://desk/index.html#/activity?${'a'.repeat(600)}`,
    'app://desk/index.html#/a/b/c/d/e',
  ])('keeps nothing of %s', (url) => {
    expect(routeOf(url)).toBeUndefined();
  });
});
