import { render } from 'preact';
import '../shared/styles.css';
import './console.css';
import { Shell } from './shell';

render(<Shell />, document.getElementById('root')!);
