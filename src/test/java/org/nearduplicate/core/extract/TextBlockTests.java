package org.nearduplicate.core.extract;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** Version 3's block rules on hand-made blocks, apart from the word-count classification they follow. */
public class TextBlockTests extends RandomizedTest {

    private static TextBlock block(String text) {
        return new TextBlock(text, TextBlock.countWords(text), 0);
    }

    /** A short label is dropped when the block after it was not content; dropping it does not drop the one before. */
    @Test
    public void testOrphanHeadingsDoNotCascade() {
        List<TextBlock> blocks = List.of(
            block("Installation"),
            block("Run the installer and restart the service when it asks you to, then log in again."),
            block("Weight 2 kg"),
            block("Colour red"),
            block("Related topics"),
            block("Bridges of the city Road works this summer"),
            block("Thank you all for reading.")
        );
        boolean[] content = { true, true, true, true, true, false, true };
        TextBlock.dropOrphanHeadings(blocks, content);
        // "Installation" heads content; "Weight 2 kg" is followed by a label that was content; "Related topics" heads
        // boilerplate; a sentence stays wherever it is
        assertArrayEquals(new boolean[] { true, true, true, true, false, false, true }, content);

        boolean[] last = { true, true };
        TextBlock.dropOrphanHeadings(List.of(block("A long enough paragraph of running text ends here."), block("Share this")), last);
        assertArrayEquals(new boolean[] { true, false }, last);
    }

    @Test
    public void testCookieNotices() {
        assertTrue(TextBlock.isCookieNotice(block("We use cookies to improve your experience. By continuing you agree.")));
        assertTrue(TextBlock.isCookieNotice(block("继续浏览即表示您同意我们使用 Cookie。")));
        assertFalse(TextBlock.isCookieNotice(block("Bake the cookies for twelve minutes, until the edges turn golden brown.")));
        StringBuilder longText = new StringBuilder("This site uses cookies.");
        for (int i = 0; i < 40; i++)
            longText.append(" More text about the article itself.");
        assertFalse("a long block is not a banner", TextBlock.isCookieNotice(block(longText.toString())));
    }
}
