/** The `/consulting` route, which leaves for the enterprise site (src/features/redirects). */
export {default} from '@site/src/features/redirects/client/Consulting';
