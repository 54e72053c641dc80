import { render } from 'preact';
import '../shared/styles.css';
import { HostedForm } from './hosted-form';

render(<HostedForm />, document.getElementById('root')!);
