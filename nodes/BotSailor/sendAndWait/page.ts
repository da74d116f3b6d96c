import type { FormField, Question } from './question';

/** The pages a person sees after opening a link from the message: small, readable on a phone, no scripts. */

export function escapeHtml(value: string): string {
	return value
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

function layout(title: string, body: string): string {
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f2f4f5;margin:0;padding:24px 12px;color:#1f2933}
main{max-width:480px;margin:0 auto;background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.25rem;margin:0 0 12px}
.question{white-space:pre-wrap;background:#e7f7ee;border-left:4px solid #25a162;padding:10px 12px;border-radius:6px;margin:0 0 16px}
.meta{color:#52606d;font-size:.9rem;margin:0 0 16px}
label{display:block;font-weight:600;margin:12px 0 4px}
input,select,textarea{width:100%;box-sizing:border-box;font:inherit;padding:10px;border:1px solid #cbd2d9;border-radius:8px}
textarea{min-height:120px}
button{display:block;width:100%;font:inherit;font-weight:600;font-size:1.05rem;padding:14px;margin-top:16px;border:0;border-radius:8px;background:#25a162;color:#fff;cursor:pointer}
button.secondary{background:#e4e7eb;color:#1f2933}
.error{color:#b42318;font-size:.9rem;margin:4px 0 0}
</style></head><body><main>${body}</main></body></html>`;
}

/** Which message the page answers: its text and who was asked. */
function context(question: Question, recipient: string): string {
	return `<p class="meta">Answer to the WhatsApp message sent to ${escapeHtml(recipient)}:</p>
<p class="question">${escapeHtml(question.formDescription)}</p>`;
}

/**
 * The approval page: the chosen answer as one explicit button. Opening the link (a GET, which is what
 * WhatsApp's link preview does too) only shows this page; pressing the button (a POST) answers.
 */
export function approvalPage(question: Question, recipient: string, label: string): string {
	return layout(
		question.formTitle || 'Your answer',
		`<h1>${escapeHtml(question.formTitle || 'Confirm your answer')}</h1>
${context(question, recipient)}
<form method="post"><input type="hidden" name="confirm" value="1">
<button type="submit">${escapeHtml(label)}</button></form>`,
	);
}

/**
 * The approval page of a template's one link: every answer as its own button, each a POST naming its
 * choice (a template carries one link; the page shows the choices). Opening it answers nothing.
 */
export function choicePage(question: Question, recipient: string): string {
	if (question.edit) return editPage(question, recipient, undefined, true);
	const button = (approved: boolean, label: string, secondary = false) =>
		`<form method="post"><input type="hidden" name="approved" value="${String(approved)}">
<button type="submit"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button></form>`;
	return layout(
		question.formTitle || 'Your answer',
		`<h1>${escapeHtml(question.formTitle || 'Your answer')}</h1>
${context(question, recipient)}
${button(true, question.approveLabel)}${question.disapproveLabel ? `\n${button(false, question.disapproveLabel, true)}` : ''}`,
	);
}

/**
 * Approve, Edit or Decline on the page (issue 53): a text box filled with the draft. The Edit link's page sends the
 * text as corrected; the page of every answer (`choices`) also has Approve (the draft as is) and Decline.
 */
export function editPage(
	question: Question,
	recipient: string,
	error?: string,
	choices = false,
): string {
	const edit = question.edit ?? { label: 'Edit', draft: '' };
	const button = (value: string, label: string, secondary = false) =>
		`<button type="submit" name="approved" value="${value}"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button>`;
	const note = error ? `<p class="error" id="f0-error">${escapeHtml(error)}</p>` : '';
	return layout(
		question.formTitle || 'Your answer',
		`<h1>${escapeHtml(question.formTitle || 'Your answer')}</h1>
${context(question, recipient)}
<form method="post"><label for="f0">${escapeHtml(edit.label)}: the text</label><textarea id="f0" name="field-0"${error ? ' aria-invalid="true" aria-describedby="f0-error"' : ''}>${escapeHtml(edit.draft)}</textarea>${note}
${
	choices
		? `${button('edit', edit.label)}\n${button('true', `${question.approveLabel} (as drafted)`, true)}\n${button('false', question.disapproveLabel ?? 'Decline', true)}`
		: `<input type="hidden" name="approved" value="edit"><button type="submit">${escapeHtml(edit.label)}</button>`
}</form>`,
	);
}

/** A refused answer shown again: the error of each field (by index) and what was typed. */
export interface FormErrors {
	errors: Record<number, string>;
	values: string[];
}

function fieldInput(field: FormField, index: number, refused?: FormErrors): string {
	const name = `field-${index}`;
	const required = field.required ? ' required' : '';
	const id = `f${index}`;
	const error = refused?.errors[index];
	const typed = refused?.values[index] ?? '';
	const invalid = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
	const value = typed ? ` value="${escapeHtml(typed)}"` : '';
	const label = `<label for="${id}">${escapeHtml(field.label)}${field.required ? ' *' : ''}</label>`;
	const note = error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : '';
	switch (field.type) {
		case 'textarea':
			return `${label}<textarea id="${id}" name="${name}"${required}${invalid}>${escapeHtml(typed)}</textarea>${note}`;
		case 'dropdown':
			return `${label}<select id="${id}" name="${name}"${required}${invalid}><option value=""></option>${field.options
				.map(
					(option) =>
						`<option${option === typed ? ' selected' : ''}>${escapeHtml(option)}</option>`,
				)
				.join('')}</select>${note}`;
		case 'number':
			return `${label}<input id="${id}" name="${name}" type="number" step="any"${required}${invalid}${value}>${note}`;
		case 'date':
			return `${label}<input id="${id}" name="${name}" type="date"${required}${invalid}${value}>${note}`;
		case 'email':
			return `${label}<input id="${id}" name="${name}" type="email"${required}${invalid}${value}>${note}`;
		default:
			return `${label}<input id="${id}" name="${name}" type="text"${required}${invalid}${value}>${note}`;
	}
}

/** The form page of Free Text (one text field) and Custom Form (the node's fields); `refused`: an answer shown again. */
export function formPage(
	question: Question,
	recipient: string,
	fields: FormField[],
	refused?: FormErrors,
): string {
	return layout(
		question.formTitle || 'Your answer',
		`<h1>${escapeHtml(question.formTitle || 'Your answer')}</h1>
${context(question, recipient)}
${refused ? '<p class="error">Not sent: check the fields marked below.</p>\n' : ''}<form method="post">${fields.map((field, index) => fieldInput(field, index, refused)).join('\n')}
<button type="submit">${escapeHtml(question.submitLabel)}</button></form>`,
	);
}

/** After the answer, and for every later visit of a link of an answered question. */
export function donePage(title: string, text: string): string {
	return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}
