import React from 'react';
import {renderToStaticMarkup} from 'react-dom/server';
import {describe, expect, it} from 'vitest';
import Details from './index';

describe('Details in a page', () => {
  it('is the native element, content in the markup, nothing hidden by a style', () => {
    const html = renderToStaticMarkup(
      <Details>
        <summary>Why?</summary>
        <p>Because.</p>
      </Details>,
    );
    expect(html).toMatch(/^<details class="alert alert--info [^"]+"><summary>Why\?<\/summary>/);
    expect(html).toContain('<p>Because.</p>');
    expect(html).not.toContain('display');
  });

  it('keeps the open attribute a page gives it', () => {
    expect(renderToStaticMarkup(<Details open />)).toMatch(/^<details open="" class=/);
  });
});
