import { render } from 'preact';
import '../shared/styles.css';
import './operator.css';
import { OperatorShell } from './operator-shell';

render(<OperatorShell />, document.getElementById('root')!);
