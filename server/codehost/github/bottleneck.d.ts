// The light build of bottleneck (what @octokit/plugin-throttling itself uses) has the
// same API as the full one, whose types it does not ship.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
