import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.ts';

describe('escapeHtml', () => {
  it('turns markup into text that shows as written', () => {
    const text = `<img src=x id=pwn1> & <b id="pwn2">'bold'</b>`;
    const escaped = escapeHtml(text);
    expect(escaped).toBe('&lt;img src=x id=pwn1&gt; &amp; &lt;b id=&quot;pwn2&quot;&gt;&#39;bold&#39;&lt;/b&gt;');
    const el = document.createElement('div');
    el.innerHTML = escaped;
    expect(el.children).toHaveLength(0);
    expect(el.textContent).toBe(text);
  });

  it('leaves plain text alone', () => {
    expect(escapeHtml('冷链车 沪A·12345 -18.5 °C')).toBe('冷链车 沪A·12345 -18.5 °C');
  });
});
