import {expect, test, type Page, type Request, type Route} from './fixtures';
import {companies, companiesWithoutLogos} from '../../src/features/promotions/companies';
import {links} from '../../src/data/links';
import {collectPageErrors} from './helpers';

/** The newsletter host the site was built with (see customFields in docusaurus.config.ts). */
const newsletterHost = (process.env.NEWSLETTER_HOST || links.newsletterHost).replace(/\/+$/, '');
const newsletterPattern = '**/Stage/newsletter**';
const adPattern = '**/*carbon*';

/** Calls to `console.error` made by page scripts (the browser's own network log excluded). */
async function trackConsoleErrors(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as {__consoleErrors: string[]}).__consoleErrors = calls;
    const original = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      calls.push(args.map(String).join(' '));
      original(...args);
    };
  });
  const logged: string[] = [];
  page.on('console', (message) => {
    // A request we abort on purpose is reported by the browser as "Failed to load resource".
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      logged.push(message.text());
    }
  });
  return async () => [
    ...logged,
    ...(await page.evaluate(
      () => (window as unknown as {__consoleErrors?: string[]}).__consoleErrors ?? [],
    )),
  ];
}

function newsletterBox(page: Page) {
  const box = page.locator('aside[data-status]');
  return {
    box,
    input: box.getByRole('textbox', {name: 'Email address'}),
    button: box.locator('button[type="submit"]'),
  };
}

test.describe('newsletter', () => {
  test.beforeEach(async ({page}) => {
    await page.route(adPattern, (route) => route.abort());
  });

  test('sends the address as JSON and ends with a check mark', async ({page, context, baseURL}) => {
    // A same-site XSRF cookie must not leak to the (absolute) newsletter URL.
    await context.addCookies([{name: 'XSRF-TOKEN', value: 'secret', url: baseURL}]);
    const errors = collectPageErrors(page);
    const consoleErrors = await trackConsoleErrors(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const requests: Request[] = [];
    await page.route(newsletterPattern, async (route: Route) => {
      requests.push(route.request());
      await held;
      await route.fulfill({status: 200, contentType: 'application/json', body: '{}'});
    });
    await page.goto('/support');
    const {box, input, button} = newsletterBox(page);
    await expect(input).toHaveAttribute('placeholder', 'Email address..');
    await expect(input).toHaveAttribute('type', 'email');
    await expect(input).toHaveAttribute('required', '');
    await expect(button).toHaveText('Subscribe');

    await input.fill('ada@example.com');
    await button.click();
    await expect(box).toHaveAttribute('data-status', 'submitting');
    await expect(input).toBeDisabled();
    await expect(button).toBeDisabled();
    // A second submit while the first is pending sends nothing more.
    await box.locator('form').evaluate((form: HTMLFormElement) => form.requestSubmit());

    release();
    await expect(box).toHaveAttribute('data-status', 'added');
    await expect(button).toBeDisabled();
    await expect(input).toBeDisabled();
    await expect(button.locator('svg')).toBeVisible();
    await expect(button).toHaveAccessibleName('Subscribed');

    expect(requests).toHaveLength(1);
    const request = requests[0];
    const url = new URL(request.url());
    expect(request.method()).toBe('POST');
    expect(`${url.origin}${url.pathname}`).toBe(`${newsletterHost}/Stage/newsletter`);
    expect(url.searchParams.has('token')).toBe(true);
    expect(request.postDataJSON()).toEqual({email: 'ada@example.com'});
    const headers = await request.allHeaders();
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-xsrf-token']).toBeUndefined();
    expect(errors()).toEqual([]);
    expect(await consoleErrors()).toEqual([]);
  });

  test('a failed request still ends in the added state, with a warning only', async ({page}) => {
    const errors = collectPageErrors(page);
    const consoleErrors = await trackConsoleErrors(page);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    let sent = 0;
    await page.route(newsletterPattern, (route) => {
      sent += 1;
      return route.abort('connectionrefused');
    });
    await page.goto('/controllers');
    const {box, input, button} = newsletterBox(page);
    await input.fill('grace@example.com');
    await input.press('Enter');
    await expect(box).toHaveAttribute('data-status', 'added');
    await expect(button).toBeDisabled();
    await expect(button.locator('svg')).toBeVisible();
    expect(sent).toBe(1);
    expect(warnings.some((warning) => warning.includes('Newsletter sign-up failed'))).toBe(true);
    expect(errors()).toEqual([]);
    expect(await consoleErrors()).toEqual([]);
  });

  test('an invalid address never leaves the browser', async ({page}) => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/Stage/newsletter')) sent.push(request.url());
    });
    await page.goto('/providers');
    const {box, input, button} = newsletterBox(page);

    await button.click(); // empty: the browser's own validation stops it
    await input.fill('not-an-email');
    await button.click();
    expect(await input.evaluate((element: HTMLInputElement) => element.validity.valid)).toBe(false);
    await expect(box).toHaveAttribute('data-status', 'idle');

    // Without the browser's validation, the code's own check still refuses.
    await box.locator('form').evaluate((form: HTMLFormElement) => {
      form.noValidate = true;
      form.requestSubmit();
    });
    await page.waitForTimeout(300);
    await expect(box).toHaveAttribute('data-status', 'idle');
    await expect(button).toBeEnabled();
    expect(sent).toEqual([]);
  });
});

test.describe('banners', () => {
  test.beforeEach(async ({page}) => {
    await page.route(adPattern, (route) => route.abort());
  });

  async function expectNewTab(link: ReturnType<Page['locator']>, href: string) {
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    await expect(link).toHaveAttribute('rel', /noreferrer/);
  }

  test('enterprise banner: heading, four bullets, Explore more in a new tab', async ({page}) => {
    for (const path of ['/', '/controllers', '/providers']) {
      await page.goto(path);
      const banner = page.locator('[data-banner="enterprise"]');
      await expect(banner, path).toHaveCount(1);
      await expect(banner.getByRole('heading')).toHaveText('Official enterprise support');
      await expect(banner.locator('li')).toHaveText([
        'Providing technical guidance',
        'Performing in-depth code reviews',
        'Mentoring team members',
        'Advising best practices',
      ]);
      const list = banner.locator('ul');
      expect(await list.evaluate((element) => getComputedStyle(element).maxWidth)).toBe('820px');
      await expectNewTab(banner.getByRole('link', {name: 'Explore more'}), links.enterprise);
    }
  });

  test('courses banner on first steps and controllers', async ({page}) => {
    for (const path of ['/first-steps', '/controllers']) {
      await page.goto(path);
      const banner = page.locator('[data-banner="courses"]');
      await expect(banner, path).toHaveCount(1);
      await expect(banner).toContainText('80+ chapters');
      await expect(banner).toContainText('5+ hours of video');
      await expectNewTab(banner.getByRole('link'), links.courses);
      // Near the top: before the second section heading.
      const bannerTop = (await banner.boundingBox())?.y ?? Infinity;
      const secondHeading = (await page.locator('article h2').nth(1).boundingBox())?.y ?? 0;
      expect(bannerTop, path).toBeLessThan(secondHeading);
    }
  });

  test('shop banner on the support page', async ({page}) => {
    await page.goto('/support');
    const banner = page.locator('[data-banner="shop"]');
    await expect(banner).toContainText(
      'Support our future development by shopping in the official store!',
    );
    await expect(banner).toContainText(/hoodies/i);
    await expect(banner).toContainText(/T-shirts/);
    await expect(banner).toContainText(/accessories/);
    await expectNewTab(banner.getByRole('link', {name: 'See more'}), links.shop);
  });

  test('banners and newsletter fit a 375px screen', async ({page}) => {
    await page.setViewportSize({width: 375, height: 800});
    for (const path of ['/controllers', '/support']) {
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
      for (const element of await page.locator('[data-banner], aside[data-status]').all()) {
        const box = await element.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 375, path).toBe(true);
      }
    }
  });
});

test.describe('ad slot', () => {
  test('with the ad host blocked: no error, and the slot takes no space', async ({page}) => {
    const errors = collectPageErrors(page);
    const consoleErrors = await trackConsoleErrors(page);
    const adRequest = page.waitForRequest((request) => request.url().includes('carbon'));
    await page.route(adPattern, (route) => route.abort());
    await page.goto('/controllers');
    await adRequest; // loaded after the page became interactive
    const slot = page.locator('article [data-ad-slot]');
    await expect(slot).toHaveCount(1);
    await page.waitForTimeout(300);
    expect((await slot.evaluate((element) => element.getBoundingClientRect().height)) ?? 0).toBe(0);
    await expect(slot.locator('script')).toHaveCount(0); // the failed script is removed
    await expect(page.locator('h1')).toHaveText('Controllers');
    expect(errors()).toEqual([]);
    expect(await consoleErrors()).toEqual([]);
  });

  test('an arriving ad shows once, also after client-side navigation', async ({page}) => {
    const errors = collectPageErrors(page);
    let served = 0;
    await page.route(adPattern, (route) => {
      served += 1;
      return route.fulfill({
        contentType: 'application/javascript',
        body: `(function () {
          var script = document.getElementById('_carbonads_js');
          var ad = document.createElement('div');
          ad.id = 'carbonads';
          ad.innerHTML = '<span class="carbon-wrap"><a class="carbon-text" href="#">An ad</a></span>';
          script.parentNode.insertBefore(ad, script);
        })();`,
      });
    });
    await page.goto('/controllers');
    const ads = page.locator('#carbonads');
    await expect(ads).toHaveCount(1);
    await expect(ads).toBeVisible();
    expect((await ads.boundingBox())?.height ?? 0).toBeGreaterThan(0);

    await page
      .locator('.theme-doc-sidebar-menu')
      .getByRole('link', {name: 'Providers', exact: true})
      .click();
    await expect(page.locator('h1')).toHaveText('Providers');
    await expect.poll(() => served).toBe(2);
    await page.waitForTimeout(300);
    await expect(ads).toHaveCount(1);
    await expect(ads).toBeVisible();
    expect(errors()).toEqual([]);
  });

  test('no ad on narrow screens', async ({page}) => {
    await page.setViewportSize({width: 480, height: 800});
    const requested: string[] = [];
    await page.route(adPattern, (route) => {
      requested.push(route.request().url());
      return route.abort();
    });
    await page.goto('/controllers');
    await page.waitForLoadState('load');
    await page.waitForTimeout(1000);
    expect(requested).toEqual([]);
    await expect(page.locator('[data-ad-slot]')).toBeHidden();
  });
});

test.describe('pages', () => {
  test.beforeEach(async ({page}) => {
    await page.route(adPattern, (route) => route.abort());
  });

  test('who is using Nest: a logo wall, a list of links and an invitation', async ({page}) => {
    await page.goto('/discover/companies');
    await expect(page.locator('h1')).toHaveText('Who is using Nest?');
    await expect(page).toHaveTitle(/^Who is using Nest\? \| /);
    const logos = page.locator('[data-company-logos] img');
    // 94 organisations: 41 on the logo wall, the others in the list of links.
    expect(await logos.count()).toBe(companies.length - companiesWithoutLogos.length);
    expect(await logos.count()).toBe(41);
    for (const logo of await logos.all()) {
      await expect(logo).toHaveAttribute('alt', /\S/);
      await expect(logo).toHaveAttribute('width', /^\d+$/);
      await expect(logo).toHaveAttribute('height', /^\d+$/);
    }
    const listLinks = page.locator('[data-company-list] a');
    expect(await listLinks.count()).toBe(companiesWithoutLogos.length);
    expect(companies).toHaveLength(94);
    await expect(page.getByRole('link', {name: 'discussion thread'})).toHaveAttribute(
      'href',
      links.companiesThread,
    );
    await expect(page.getByRole('link', {name: 'open a pull request'})).toBeVisible();

    // Logos load, greyscale until hovered.
    const first = logos.first();
    await expect
      .poll(() => first.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(await first.evaluate((image) => getComputedStyle(image).filter)).toContain('grayscale');
    await first.hover();
    await expect.poll(() => first.evaluate((image) => getComputedStyle(image).filter)).toBe('none');
  });

  test('who is using Nest at 480px: full-width tiles, 180px logos', async ({page}) => {
    await page.setViewportSize({width: 480, height: 900});
    await page.goto('/discover/companies');
    const wall = page.locator('[data-company-logos]');
    const tile = wall.locator('a').first();
    const wallBox = await wall.boundingBox();
    const tileBox = await tile.boundingBox();
    expect(tileBox?.width).toBeCloseTo(wallBox?.width ?? 0, 0);
    const image = tile.locator('img');
    expect((await image.boundingBox())?.width).toBeCloseTo(180, 0);
  });

  test('support shows the shop banner', async ({page}) => {
    await page.goto('/support');
    await expect(page.locator('[data-banner="shop"]')).toBeVisible();
  });

  test('enterprise: the Official Support page with a mailto Contact us link', async ({page}) => {
    await page.goto('/enterprise');
    await expect(page).toHaveURL((url) => url.pathname === '/enterprise');
    await expect(page.locator('h1')).toHaveText('Official Support');
    await expect(page).toHaveTitle(/^Official Support \| /);
    await expect(page.getByRole('link', {name: 'Contact us'})).toHaveAttribute(
      'href',
      `mailto:${links.supportEmail}`,
    );
  });
});
