package org.nearduplicate.core.features;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

import java.util.ArrayList;
import java.util.List;

/** The stopwords of word features and the antecedents of spot signatures: one list, so that both see the same words. */
public final class Stopwords {
    private Stopwords() {}

    /** Lucene's English stopwords and the most frequent Chinese function words. */
    public static final CharArraySet SET;

    static {
        List<String> words = new ArrayList<>();
        EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.forEach(w -> words.add(new String((char[]) w)));
        for (String w : new String[] {
            "的",
            "了",
            "是",
            "在",
            "和",
            "与",
            "及",
            "或",
            "也",
            "就",
            "都",
            "而",
            "被",
            "把",
            "这",
            "那",
            "之",
            "其",
            "中",
            "一个",
            "我们",
            "你",
            "我",
            "他",
            "她",
            "它",
            "将",
            "对",
            "为",
            "以",
            "于",
            "上",
            "下",
            "不",
            "有",
            "个",
            "等",
            "从",
            "到",
            "由",
            "该",
            "并",
            "可以",
            "如果",
            "则",
            "但",
            "所",
            "着",
            "过",
            "吗",
            "呢",
            "吧",
            "啊" }) {
            words.add(w);
        }
        SET = CharArraySet.unmodifiableSet(new CharArraySet(words, false));
    }

}
