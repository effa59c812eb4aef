package org.nearduplicate.core.extract;

import org.nearduplicate.core.ContentType;

/**
 * The first stage of every method: the text that features are taken from. HTML loses its markup and, with
 * extraction on, its boilerplate (navigation, header, footer, link lists, copyright lines); a text dump loses its
 * link lists and reference lines. Nothing here is normalized yet.
 */
public final class MainContent {
    private MainContent() {}

    /**
     * {@code type}: HTML or TEXT (resolved, never AUTO); {@code version}: the algorithm version whose rules apply (1:
     * boilerpipe's word counts; 2: sentences are also kept; 3: headings go with what follows them, cookie notices go,
     * and a text dump's separator lines and menu bars are read as the HTML page shows them; see
     * {@link TextBlock#classify} and {@link TextExtractor}).
     */
    public static String extract(String content, ContentType type, boolean extractMain, int version) {
        if (type == ContentType.HTML) {
            if (extractMain) {
                String main = HtmlExtractor.mainText(content, version);
                // a page can be all "boilerplate" to the classifier (e.g. a bare list); then its text is all we have
                return main.isBlank() ? HtmlExtractor.fullText(content) : main;
            }
            return HtmlExtractor.fullText(content);
        }
        if (extractMain) {
            String main = TextExtractor.mainText(content, version);
            return main.isBlank() ? content : main;
        }
        return content;
    }
}
